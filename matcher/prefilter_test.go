package matcher

import (
	"context"
	"slices"
	"testing"

	"github.com/structls/structls/lang"
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

// TestMayMatchWholeWords: a literal made of word characters (an
// identifier, a number) must occur as a whole word, as a keyword must; one
// with other characters anywhere; and a file the test lets through still
// matches or not as the parse says.
func TestMayMatchWholeWords(t *testing.T) {
	tests := []struct {
		pattern, code string
		may           bool
	}{
		{"$A := make($T, $N)", "x := makeValAndOff(1, 2)", false},
		{"$A := make($T, $N)", "x := remake(a, b)", false},
		{"$A := make($T, $N)", "x := make([]int, 3)", true},
		{"$A := make($T, $N)", "x := make ([]int, 3)", true},
		{"$A := make($T, $N)", "x := (make)([]int, 3)", true},
		{"f(10)", "f(x10)", false},
		{"f(10)", "f(0x10)", true}, // a run that starts with a digit: unsure, so parse
		{"f(10)", "f(10)", true},
		{`f("a b")`, `f("xa by")`, true}, // not a word: as a substring
	}
	l, _ := lang.Lookup("go")
	for _, tt := range tests {
		p, err := Compile(context.Background(), l, tt.pattern, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.mayMatch([]byte(tt.code)); got != tt.may {
			t.Errorf("%q in %q: mayMatch %v; want %v", tt.pattern, tt.code, got, tt.may)
		}
	}
}
