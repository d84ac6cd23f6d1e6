package grep

import (
	"regexp"
	"testing"
)

// TestRequiredLiterals checks the exported condition: never false where the
// regex matches (it is necessary), false on texts lacking the literals, and
// no condition for expressions that fold case.
func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		expr   string
		empty  bool
		match  []string // texts the regex matches: MayMatch must hold
		mayNot []string // texts without the literals: MayMatch is false
	}{
		{expr: `\b(TODO|FIXME|XXX)\b`, match: []string{"// TODO: x", "XXX", "a FIXME"}, mayNot: []string{"// todo", "// nothing here", ""}},
		{expr: `^init$`, match: []string{"init"}, mayNot: []string{"ini", "main"}},
		{expr: `^!\s*!`, match: []string{"!!x", "! !x"}, mayNot: []string{"x", "-x"}},
		{expr: `%`, match: []string{`"%d"`}, mayNot: []string{`"plain"`}},
		{expr: `(?i)todo`, empty: true, match: []string{"TODO", "todo"}},
		{expr: `.*`, empty: true, match: []string{"", "x"}},
		{expr: `a|.`, empty: true, match: []string{"b"}},
	}
	for _, tt := range tests {
		re := regexp.MustCompile(tt.expr)
		l := RequiredLiterals(tt.expr)
		if l.Empty() != tt.empty {
			t.Errorf("RequiredLiterals(%q).Empty() = %v, want %v", tt.expr, l.Empty(), tt.empty)
		}
		for _, text := range tt.match {
			if !re.MatchString(text) {
				t.Fatalf("bad test: %q does not match %q", tt.expr, text)
			}
			if !l.MayMatch([]byte(text)) {
				t.Errorf("RequiredLiterals(%q).MayMatch(%q) = false, but the regex matches", tt.expr, text)
			}
		}
		for _, text := range tt.mayNot {
			if l.MayMatch([]byte(text)) {
				t.Errorf("RequiredLiterals(%q).MayMatch(%q) = true, want false", tt.expr, text)
			}
		}
	}
}

// TestASCIILower: the eight-bytes-at-a-time lowering equals a byte-at-a-time
// one for every byte value in every lane, at every length and alignment.
func TestASCIILower(t *testing.T) {
	var text []byte
	for b := range 256 {
		text = append(text, byte(b))
	}
	for shift := range 8 { // each byte value in each of the eight lanes
		text = append(text[1:], text[0])
		for _, n := range []int{0, 1, 7, 8, 9, 255, 256} {
			got := asciiLower(nil, text[:n])
			for i, c := range text[:n] {
				want := c
				if 'A' <= c && c <= 'Z' {
					want = c + 'a' - 'A'
				}
				if got[i] != want {
					t.Fatalf("shift %d, length %d: byte %d (%#x) lowered to %#x; want %#x", shift, n, i, c, got[i], want)
				}
			}
		}
	}
}
