package matcher

import (
	"context"
	"strings"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// TestFindEachStopsWhenCancelled: the walk over a huge tree looks at its
// context inside the loop, after every match and every few hundred nodes, so
// a cancelled query stops at once instead of when the tree is done.
func TestFindEachStopsWhenCancelled(t *testing.T) {
	l, _ := lang.Lookup("javascript")
	tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte(strings.Repeat("f(1);\n", 5000)))
	if err != nil {
		t.Fatal(err)
	}
	compile := func(pattern string) *Pattern {
		p, err := Compile(context.Background(), l, pattern, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err = compile("$A").FindEach(ctx, tree, func(int32, *Env) bool { calls++; cancel(); return true })
	if err != context.Canceled || calls != 1 {
		t.Errorf("$A, cancelled at the first match: error %v after %d matches; want context.Canceled after 1", err, calls)
	}
	for _, pattern := range []string{"$A", "g($X)"} { // matching every node; matching none
		calls := 0
		err = compile(pattern).FindEach(ctx, tree, func(int32, *Env) bool { calls++; return true })
		if err != context.Canceled || calls > 0 {
			t.Errorf("%s, already cancelled: error %v after %d matches; want context.Canceled at once", pattern, err, calls)
		}
	}
}
