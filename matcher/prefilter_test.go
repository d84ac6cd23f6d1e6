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

func TestContainsWord(t *testing.T) {
	tests := []struct {
		text, word string
		want       bool
	}{
		{"go func() {}()", "go", true},
		{"\tgo f()", "go", true},
		{"//go:build linux", "go", true},
		{"x := ago", "go", false},
		{"golang", "go", false},
		{"go_", "go", false},
		{"ago go", "go", true},             // a later occurrence counts
		{"x = [0xfor x in y]", "or", true}, // Python reads 0xf or
		{"y = 1if x else 2", "if", true},   // and 1 if
		{"x1if", "if", false},              // an identifier
		{"éif", "if", true},                // non-ASCII: unsure, so parse
		{"return", "return", true},         // at both ends of the text
		{"returned", "return", false},
		{"", "go", false},
	}
	for _, tt := range tests {
		if got := containsWord([]byte(tt.text), tt.word); got != tt.want {
			t.Errorf("containsWord(%q, %q) = %v; want %v", tt.text, tt.word, got, tt.want)
		}
	}
}
