package rules

import (
	"context"
	"strings"
	"testing"
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
