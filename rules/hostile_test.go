package rules

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// hostileDeadline is far beyond what these cases take when they work: it
// only turns a hang into a failure.
const hostileDeadline = 60 * time.Second

func withDeadline(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(hostileDeadline):
		t.Fatalf("%s: no answer after %v", what, hostileDeadline)
	}
}

func parseJS(t *testing.T, src string) (*lang.Language, *syntax.Tree) {
	t.Helper()
	l, _ := lang.Lookup("javascript")
	tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return l, tree
}

// TestHostileRuleFiles: rule files nested far too deep, or huge, get an
// error, not a crash.
func TestHostileRuleFiles(t *testing.T) {
	deep := "id: x\nlanguage: js\nrule: " + strings.Repeat("{not: ", 5000) + "{kind: number}" + strings.Repeat("}", 5000) + "\n"
	withDeadline(t, "deep rule", func() {
		_, err := ParseRules("deep.yml", []byte(deep), Options{})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Message, "levels deep") {
			t.Errorf("got %v; want the nesting error", err)
		}
	})
	aliases := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'k'; i++ {
		aliases += string(i) + ": &" + string(i) + " [" + strings.Repeat("*"+string(i-1)+", ", 8) + "*" + string(i-1) + "]\n"
	}
	withDeadline(t, "alias bomb", func() {
		_, err := ParseRules("bomb.yml", []byte(aliases+"id: x\nlanguage: js\nrule: {kind: number}\n"), Options{})
		if err == nil {
			t.Error("an alias bomb with unknown keys was accepted")
		}
	})
}

// TestHostileCode: recursion through utils on deeply nested code is
// bounded, and a rule nesting has inside has over a large tree stops when
// its context ends.
func TestHostileCode(t *testing.T) {
	set, err := ParseRules("r.yml", []byte(`
id: nested-await
language: js
utils:
  has-await:
    any:
      - kind: await_expression
      - kind: parenthesized_expression
        has: {matches: has-await}
rule: {kind: expression_statement, has: {matches: has-await}}
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, tree := parseJS(t, strings.Repeat("(", 20000)+"await x"+strings.Repeat(")", 20000)+";\n((await y));\n")
	withDeadline(t, "deep recursion", func() {
		findings, err := set.Check(context.Background(), "a.js", l, tree)
		if err != nil || len(findings) != 1 {
			t.Errorf("got %d findings, %v; want only the shallow ((await y)) (recursion is bounded)", len(findings), err)
		}
	})

	slow, err := ParseRules("r.yml", []byte(`
id: cubic
language: js
rule:
  kind: expression_statement
  has:
    stopBy: end
    kind: identifier
    inside:
      stopBy: end
      kind: program
      has: {stopBy: end, kind: identifier, regex: '^nothing$'}
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// one statement of 40,000 identifiers: about 3·10⁹ steps for its one
	// node, far past the step bound, which is lifted: the context stops it
	slow.stepLimit = math.MaxInt
	l, tree = parseJS(t, "x"+strings.Repeat(" + a + b", 20000)+";\n")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	withDeadline(t, "cancelled check", func() {
		_, err := slow.Check(ctx, "a.js", l, tree)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %v; want the context's deadline error", err)
		}
	})
}

// TestRewriterRecursionBounded: a rewriter whose transform rewrites the
// enclosing rule's own variable with itself never ends (ast-grep 0.51.1
// overflows its stack and aborts); here the nesting is cut at
// maxRewriteDepth and the scan goes on.
func TestRewriterRecursionBounded(t *testing.T) {
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
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, tree := parseJS(t, "[1, [2]];\n")
	withDeadline(t, "self-rewriting rewriter", func() {
		findings, err := set.Check(context.Background(), "a.js", l, tree)
		if err != nil || len(findings) != 1 {
			t.Errorf("got %d findings, %v; want 1", len(findings), err)
		}
	})
}

// recursiveUtil recurses through inside and has with matches: from each
// node its ancestors try their descendants, which try their ancestors…
// It never ended (ast-grep 0.51.1 overflows its stack).
const recursiveUtil = `
id: rec
language: go
utils:
  up:
    any:
      - kind: comment
      - inside: {matches: up, stopBy: end}
      - has: {matches: up, stopBy: end}
rule: {kind: int_literal, matches: up}
`

// TestRecursiveRuleStops: a rule whose evaluation never ends is stopped
// at its step bound and reported as an error finding of that rule; the
// other rules of the set go on over the whole file.
func TestRecursiveRuleStops(t *testing.T) {
	set, err := ParseRules("r.yml", []byte(recursiveUtil+"---\nid: ints\nlanguage: go\nrule: {kind: int_literal}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := lang.Lookup("go")
	tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte("package a\n\nfunc f() {\n\tx := 1\n\tif x > 0 {\n\t\tprintln(x, 2)\n\t}\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	withDeadline(t, "recursive rule", func() {
		findings, err := set.Check(context.Background(), "a.go", l, tree)
		if err != nil {
			t.Fatal(err)
		}
		var rec, ints int
		for _, f := range findings {
			switch f.RuleID {
			case "rec":
				rec++
				if f.Severity != SeverityError || !strings.Contains(f.Message, "stopped evaluating rule rec") {
					t.Errorf("rec finding %+v; want the error saying the rule was stopped", f)
				}
			case "ints":
				ints++
			}
		}
		if rec != 1 || ints != 3 {
			t.Errorf("%d rec findings, %d ints findings; want 1 (then the rule is skipped) and 3", rec, ints)
		}
	})
}
