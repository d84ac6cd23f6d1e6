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
	if allocs := failedTryAllocs(t, "{kind: call_expression, any: [{kind: identifier}, {not: {kind: call_expression}}, {has: {kind: goto_statement, stopBy: end}}]}"); allocs != 0 {
		t.Errorf("a failed try allocates %v times, want 0", allocs)
	}
}

// TestPatternMissAllocatesNothing: a pattern rule tried on a short node
// whose text lacks the pattern's literals (most calls a rule like
// `pattern: fmt.Sprintf($S)` is tried on) fails before matching, which
// allocates the bindings.
func TestPatternMissAllocatesNothing(t *testing.T) {
	if allocs := failedTryAllocs(t, "{pattern: {context: 'func t() { fmt.Sprintf($S) }', selector: call_expression}}"); allocs != 0 {
		t.Errorf("a pattern that cannot match allocates %v times, want 0", allocs)
	}
}

// TestRelationalTriesAllocateNothing: a relational rule that matches (its
// candidate becomes a secondary label) in a rule that then fails, and an
// nthChild count, allocate nothing: the labels go to the state's store,
// and the siblings are counted, not listed.
func TestRelationalTriesAllocateNothing(t *testing.T) {
	for _, rule := range []string{
		"{kind: call_expression, all: [{has: {kind: identifier}}, {has: {kind: goto_statement}}]}",
		"{kind: call_expression, nthChild: 2}",
	} {
		if allocs := failedTryAllocs(t, rule); allocs != 0 {
			t.Errorf("%s: a failed try allocates %v times, want 0", rule, allocs)
		}
	}
}

// TestPatternMismatchAllocatesNothing: a pattern holding the node's
// literals that fails before binding anything (`g(1, $A)` on `g(1)`)
// allocates nothing: the try shares the bindings' maps until it binds
// (it made two maps and an environment).
func TestPatternMismatchAllocatesNothing(t *testing.T) {
	if allocs := failedTryAllocs(t, "{pattern: {context: 'func t() { g(1, $A) }', selector: call_expression}}"); allocs != 0 {
		t.Errorf("a pattern failing before any binding allocates %v times, want 0", allocs)
	}
}

// TestPatternBindingThenMismatchAllocatesNothing: a pattern try that binds
// a metavariable and then fails (`$X = $X` on most assignments; here
// `g($A, 1)` on `g(1)`) gives its bindings' map back for the next try.
func TestPatternBindingThenMismatchAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are counted without the race detector (see raceEnabled)")
	}
	if allocs := failedTryAllocs(t, "{pattern: {context: 'func t() { g($A, 1) }', selector: call_expression}}"); allocs != 0 {
		t.Errorf("a pattern failing after a binding allocates %v times, want 0", allocs)
	}
}

// failedTryAllocs returns the allocations of one try of a Go rule (the
// YAML of its `rule:`) on a call it does not match, once a first try has
// filled the free list and the pools.
func failedTryAllocs(t *testing.T, rule string) float64 {
	t.Helper()
	r, s, call := onCall(t, "id: r\nlanguage: go\nrule: "+rule+"\n")
	e := newEnv()
	try := func() {
		s.labels = s.labels[:0] // as Check does before each rule
		if r.match(s, call, e) {
			t.Fatalf("%s matched g(1)", rule)
		}
	}
	try()
	return testing.AllocsPerRun(100, try)
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
