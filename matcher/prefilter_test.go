package matcher

import (
	"context"
	"slices"
	"testing"

	"github.com/structls/structls/matcher/lang"
)

func TestLiterals(t *testing.T) {
	tests := []struct {
		lang, pattern string
		strictness    Strictness
		want          []string
	}{
		{"go", "for $K, $V := range $X { $$$ }", Smart, []string{"for", "range"}},
		{"go", "if err != nil { return $$$ }", Smart, []string{"err", "nil", "if", "return"}},
		{"go", "if err != nil { return $$$ }", Relaxed, []string{"err", "nil"}},
		{"go", "if err != nil { return $$$ }", Signature, []string{"err", "nil"}}, // mayMatch ignores them in signature mode
		{"javascript", "foo($$$A, c)", Smart, []string{"foo", "c"}},
	}
	for _, tt := range tests {
		l, _ := lang.Lookup(tt.lang)
		p, err := Compile(context.Background(), l, tt.pattern, Options{Strictness: tt.strictness})
		if err != nil {
			t.Fatal(err)
		}
		got := slices.Clone(p.Literals())
		slices.Sort(got)
		slices.Sort(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s %s %q: literals %q; want %q", tt.lang, tt.strictness, tt.pattern, got, tt.want)
		}
	}
}
