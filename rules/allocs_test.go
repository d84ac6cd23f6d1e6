package rules

import (
	"context"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// TestFailedTriesAllocateNothing: the copies of the environment that
// any, not and relational rules try sub-rules against come from the
// state's free list, so a try that fails allocates nothing (they were two
// allocations each, on most nodes of every file).
func TestFailedTriesAllocateNothing(t *testing.T) {
	rule, s, call := onCall(t, "id: r\nlanguage: go\nrule: {kind: call_expression, any: [{kind: identifier}, {not: {kind: call_expression}}, {has: {kind: goto_statement, stopBy: end}}]}\n")
	e := newEnv()
	rule.match(s, call, e) // fills the free list
	if allocs := testing.AllocsPerRun(100, func() {
		if rule.match(s, call, e) {
			t.Fatal("the rule matched")
		}
	}); allocs != 0 {
		t.Errorf("a failed try allocates %v times, want 0", allocs)
	}
}

// TestPatternMissAllocatesNothing: a pattern rule tried on a short node
// whose text lacks the pattern's literals (most calls a rule like
// `pattern: fmt.Sprintf($S)` is tried on) fails before matching, which
// allocates the bindings.
func TestPatternMissAllocatesNothing(t *testing.T) {
	rule, s, call := onCall(t, "id: r\nlanguage: go\nrule: {pattern: {context: 'func t() { fmt.Sprintf($S) }', selector: call_expression}}\n")
	e := newEnv()
	if allocs := testing.AllocsPerRun(100, func() {
		if rule.match(s, call, e) {
			t.Fatal("the rule matched")
		}
	}); allocs != 0 {
		t.Errorf("a pattern that cannot match allocates %v times, want 0", allocs)
	}
}

// onCall compiles a one-rule YAML document and returns its rule, a check
// state over a small Go file, and the file's call g(1) to try the rule on.
func onCall(t *testing.T, yaml string) (matchRule, *state, int32) {
	t.Helper()
	l, _ := lang.Lookup("go")
	tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte("package p\n\nfunc f() { g(1) }\n"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := ParseRules("t.yml", []byte(yaml), Options{BaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	call := int32(-1)
	for i := range tree.Nodes {
		if tree.Kind(int32(i)) == "call_expression" {
			call = int32(i)
		}
	}
	return set.Rules[0].core.rule, &state{t: tree}, call
}
