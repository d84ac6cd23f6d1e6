package outline

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// skipCase is one table case of a body scanner: the source with the text
// it must skip written between ⟦ and ⟧.
type skipCase string

// checkSkips runs a language's Skip on each case and compares the ranges
// with the marked ones.
func checkSkips(t *testing.T, language string, cases []skipCase) {
	t.Helper()
	spec := SpecFor(language)
	for _, c := range cases {
		src := strings.ReplaceAll(strings.ReplaceAll(string(c), "⟦", ""), "⟧", "")
		var got []string
		skip := spec.Skip([]byte(src), nil)
		for i := 0; i+1 < len(skip); i += 2 {
			got = append(got, src[skip[i]:skip[i+1]])
		}
		if want := marked(string(c)); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s %q: skips %q, want %q", language, src, got, want)
		}
	}
}

// fuzzSkips is the fuzz target every body scanner is held to: on any text
// the ranges are in order, do not overlap and are the insides of braces;
// and for any text that parses without error, the outline of the tree
// parsed without them equals the whole tree's.
func fuzzSkips(f *testing.F, language string, seeds []string) {
	for _, seed := range seeds {
		f.Add([]byte(seed))
	}
	l, err := lang.Lookup(language)
	if err != nil {
		f.Fatal(err)
	}
	spec := SpecFor(language)
	var scratch syntax.Scratch
	f.Cleanup(scratch.Release)
	f.Fuzz(func(t *testing.T, src []byte) {
		skip := spec.Skip(src, nil)
		bodiesByToken = true
		byToken := spec.Skip(src, nil)
		bodiesByToken = false
		if !slices.Equal(skip, byToken) {
			t.Fatalf("the fast scan of bodies skips %v, token by token %v", skip, byToken)
		}
		if len(skip)%2 != 0 {
			t.Fatalf("%d offsets: not pairs", len(skip))
		}
		prev := uint32(0)
		for i := 0; i < len(skip); i += 2 {
			start, end := skip[i], skip[i+1]
			if start < prev || end <= start || int(end) >= len(src) || !(start > 0 && brackets(src[start-1], src[end]) || ownLines(src, int(start), int(end))) {
				t.Fatalf("range %d-%d (after %d) is neither the inside of brackets nor comments on lines of their own, in order", start, end, prev)
			}
			prev = end
		}
		whole, err := syntax.Parse(context.Background(), l.Grammar(), src)
		if err != nil || whole.HasError() {
			return
		}
		want := Extract(whole, spec)
		skipped, err := syntax.ParsePruned(context.Background(), l.Grammar(), src, spec.opaqueKinds(l.Grammar()), skip, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		if got := Extract(skipped, spec); !reflect.DeepEqual(got, want) {
			t.Fatalf("the outline without the %d skipped ranges differs:\n%+v\nwant\n%+v", len(skip)/2, got, want)
		}
	})
}

// ownLines reports whether src[start:end] may be a run of comments on
// lines of their own: it starts with a comment after a line break and
// blanks, and a line break follows it.
func ownLines(src []byte, start, end int) bool {
	text := string(src[start:end])
	line := strings.LastIndexByte(string(src[:start]), '\n') + 1
	return (strings.HasPrefix(text, "//") || strings.HasPrefix(text, "/*")) && strings.TrimSpace(string(src[line:start])) == "" && src[end] == '\n'
}

// brackets reports whether open and close are a pair of brackets: {},
// or () and [] (Rust's macro calls).
func brackets(open, close byte) bool {
	return open == '{' && close == '}' || open == '(' && close == ')' || open == '[' && close == ']'
}
