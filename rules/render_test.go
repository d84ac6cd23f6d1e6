package rules

import (
	"context"
	"strings"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// TestFailedRewriteFailsTheFix: a rewrite transform cut at its depth or
// count bound fails the match's fixes (and its message says so), rather
// than render a half-rewritten or empty value into the file.
func TestFailedRewriteFailsTheFix(t *testing.T) {
	set, err := ParseRules("r.yml", []byte(`
id: flatten
language: js
rule: {pattern: '[$$$C]', inside: {kind: expression_statement}}
transform:
  D: {rewrite: {source: $$$C, rewriters: [re1], joinBy: ', '}}
rewriters:
  - id: re1
    rule: {any: [{pattern: '[$$$C]'}, {kind: number, pattern: $N}]}
    transform:
      E: {rewrite: {source: $$$C, rewriters: [re1], joinBy: ', '}}
    fix: $E$N
message: '[$D]'
fix: 'flat($D)'
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, tree := parseJS(t, "[1, [2]];\n")
	withDeadline(t, "self-rewriting rewriter", func() {
		findings, err := set.Check(context.Background(), "a.js", l, tree)
		if err != nil || len(findings) != 1 || len(findings[0].Fixes) != 1 {
			t.Fatalf("got %d findings, %v; want 1 with one fix", len(findings), err)
		}
		fx := findings[0].Fixes[0]
		if fx.Err == nil || fx.Text != "" || !strings.Contains(fx.Err.Error(), "transform `D`: rewriters nested more than 64 levels deep") {
			t.Errorf("fix %q, error %v; want no text and the depth error", fx.Text, fx.Err)
		}
		if !strings.Contains(findings[0].Message, "could not expand this message") {
			t.Errorf("message %q; want it to say it could not be expanded", findings[0].Message)
		}
	})
}

// TestFixCutShortFails: a fix whose expandEnd runs out of steps (the
// recursive util of TestRecursiveRuleStops) fails, rather than replace a
// range the bound cut short.
func TestFixCutShortFails(t *testing.T) {
	set, err := ParseRules("r.yml", []byte(`
id: exp
language: go
utils:
  up:
    any:
      - kind: comment
      - inside: {matches: up, stopBy: end}
      - has: {matches: up, stopBy: end}
rule: {kind: identifier, inside: {kind: argument_list}}
fix:
  template: Z
  expandEnd: {matches: up}
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := lang.Lookup("go")
	tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte("package a\n\nfunc f() {\n\tprintln(x, 2)\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	withDeadline(t, "recursive expandEnd", func() {
		findings, err := set.Check(context.Background(), "a.go", l, tree)
		if err != nil || len(findings) != 1 || len(findings[0].Fixes) != 1 {
			t.Fatalf("got %+v, %v; want one finding with one fix", findings, err)
		}
		if fx := findings[0].Fixes[0]; fx.Err == nil || !strings.Contains(fx.Err.Error(), "expandStart/expandEnd took more than") {
			t.Errorf("fix %+v; want the step bound's error", fx)
		}
	})
}

// TestExpandEndMatchesUtil: a `matches` in expandEnd names a util like
// any other (it was left unresolved, and the first match crashed the
// process); the range is ast-grep 0.51.1's (bytes 31-33 of this file).
func TestExpandEndMatchesUtil(t *testing.T) {
	set, err := ParseRules("r.yml", []byte(`
id: exp
language: go
utils:
  comma: {regex: '^,$'}
rule: {kind: identifier, inside: {kind: argument_list}}
fix:
  template: Z
  expandEnd: {matches: comma}
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := lang.Lookup("go")
	tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte("package a\n\nfunc f() {\n\tprintln(x, 2)\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	findings, err := set.Check(context.Background(), "a.go", l, tree)
	if err != nil || len(findings) != 1 {
		t.Fatalf("got %+v, %v; want one finding", findings, err)
	}
	if fx := findings[0].Fixes[0]; fx.Err != nil || fx.Start != 31 || fx.End != 33 || fx.Text != "Z" {
		t.Errorf("fix %+v; want Z over bytes 31-33", fx)
	}
}
