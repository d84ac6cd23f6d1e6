package matcher

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// TestFailedTriesAllocateNothing: a search whose candidates all fail —
// before binding (`g(1, $A)` on g(2)), after binding ($X == $X on a == b,
// and on f(x, y) == f(x, z), comparing two subtrees), or in the lookahead
// past an ellipsis (`h($$$, $B, 2)` on h(1, 3), where $B binds in the try
// of 1 and again for real) — allocates nothing once the pools hold a map:
// the children are followed by their sibling links, not listed, the tries
// share their Env's maps until they bind, a failed try's maps go back to
// the pool, and the comparison's stack starts on the stack.
func TestFailedTriesAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are counted without the race detector (see raceEnabled)")
	}
	code := "package p\n\nfunc f() {\n" + strings.Repeat("\tg(2)\n\t_ = a == b\n\t_ = f(x, y) == f(x, z)\n\th(1, 3)\n", 50) + "}\n"
	for _, pattern := range []string{"g(1, $A)", "$X == $X", "h($$$, $B, 2)"} {
		p, tree := compileOn(t, pattern, code)
		search := func() {
			if err := p.FindEach(context.Background(), tree, func(int32, *Env) bool {
				t.Fatal("the pattern matched")
				return false
			}); err != nil {
				t.Fatal(err)
			}
		}
		search() // fills the pools
		if allocs := testing.AllocsPerRun(20, search); allocs != 0 {
			t.Errorf("%s: a search where every try fails allocates %v times, want 0", pattern, allocs)
		}
	}
}

// TestMatchWithLeavesSharedMapsAlone: MatchWith never writes the maps of
// the Env it is given, which copies of that Env (a rule's other tries)
// hold: a try that fails, before binding or after, leaves them as they
// were (its own maps go to the pool, not theirs), and a match binds in
// maps of its own.
func TestMatchWithLeavesSharedMapsAlone(t *testing.T) {
	p, tree := compileOn(t, "$A + $B", "package p\n\nvar x = 1 + 2\nvar y = 1 - 2\n")
	bound, _ := compileOn(t, "$A", "")
	literal, _ := compileOn(t, "2 + $B", "")
	var sum, diff int32 = -1, -1
	for i := range tree.Nodes {
		if tree.Kind(int32(i)) == "binary_expression" {
			if string(tree.Text(int32(i))) == "1 + 2" {
				sum = int32(i)
			} else {
				diff = int32(i)
			}
		}
	}
	env := &Env{}
	if !bound.MatchWith(tree, tree.Nodes[sum].FirstChild, env) {
		t.Fatal("$A did not match 1")
	}
	copied := *env
	for range 3 {
		if p.MatchWith(tree, diff, env) {
			t.Fatal("$A + $B matched 1 - 2")
		}
		if literal.MatchWith(tree, sum, env) {
			t.Fatal("2 + $B matched 1 + 2")
		}
	}
	if !p.MatchWith(tree, sum, env) {
		t.Fatal("$A + $B did not match 1 + 2 with $A bound to 1")
	}
	if len(copied.Single) != 1 || string(tree.Text(copied.Single["A"])) != "1" {
		t.Errorf("the copy's bindings are %v, want A only, bound to 1", copied.Single)
	}
	if len(env.Single) != 2 || string(tree.Text(env.Single["B"])) != "2" {
		t.Errorf("the match's bindings are %v, want A and B=2", env.Single)
	}
}

// compileOn compiles a Go pattern and parses code.
func compileOn(t *testing.T, pattern, code string) (*Pattern, *syntax.Tree) {
	t.Helper()
	l, _ := lang.Lookup("go")
	p, err := Compile(context.Background(), l, pattern, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte(code))
	if err != nil {
		t.Fatal(err)
	}
	return p, tree
}

// TestDeepPatternCompilesInLinearSpace: compiling a pattern nested 20,000
// levels deep copies each node's text only when it may be a metavariable
// (it starts with the meta character) or is a leaf: copying every level's
// text, which holds all the levels below it, was 400 MB here (and half a
// minute at 50,000 levels, over two at 400,000).
func TestDeepPatternCompilesInLinearSpace(t *testing.T) {
	l, err := lang.Lookup("go")
	if err != nil {
		t.Fatal(err)
	}
	const depth = 20_000
	pattern := strings.Repeat("(", depth) + "x" + strings.Repeat(")", depth)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Compile(context.Background(), l, pattern, Options{}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 100<<20 {
		t.Errorf("compiling a %d-byte pattern allocated %d MB", len(pattern), allocated>>20)
	}
}
