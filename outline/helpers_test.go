package outline

import (
	"context"
	"testing"

	"github.com/structls/structls/lang"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// outlineOf extracts the outline of src as language, positions in UTF-8.
func outlineOf(t testing.TB, language string, src []byte) []Item {
	t.Helper()
	l, err := lang.Lookup(language)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := syntax.Parse(context.Background(), l.Grammar(), src)
	if err != nil {
		t.Fatal(err)
	}
	return Items(Extract(tree, SpecFor(l.Name)), workspace.NewMapper(src), workspace.UTF8)
}

// parsesWithErrors reports whether src holds a syntax error as language.
func parsesWithErrors(t testing.TB, language string, src []byte) bool {
	l, err := lang.Lookup(language)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := syntax.Parse(context.Background(), l.Grammar(), src)
	if err != nil {
		t.Fatal(err)
	}
	return tree.HasError()
}

func intp(n int) *int { return &n }

// nextSkipIs reports whether res continues at skip n.
func nextSkipIs(res *Result, n int) bool { return res.NextSkip != nil && *res.NextSkip == n }
