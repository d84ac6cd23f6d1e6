package grep

import (
	"bytes"
	"strings"
	"testing"
)

// referenceIndexFold is what indexFold must answer: the literal looked for
// in an ASCII-lower-cased copy of the text.
func referenceIndexFold(text []byte, lit string) int {
	lowered := bytes.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, text)
	if !bytes.Equal(lowered, asciiLower(nil, text)) { // bytes.Map rewrites invalid UTF-8: compare bytes only where valid
		lowered = asciiLower(nil, text)
	}
	return bytes.Index(lowered, []byte(lit))
}

// TestIndexFold compares indexFold with a search in a lowered copy, and
// indexLiteral without folding with bytes.Index: letters
// in both cases, the rarest byte at either end of the literal or missing,
// false candidates at nearly every byte (the linear fallback, across its
// chunks' boundaries), literals longer than the text, bytes above ASCII.
func TestIndexFold(t *testing.T) {
	eees := strings.Repeat("e", 10_000)
	cases := []struct{ text, lit string }{
		{"Deadline Exceeded", "deadline exceeded"},
		{"DEADLINE EXCEEDED", "deadline exceeded"},
		{"deadline exceed", "deadline exceeded"},
		{"xx", "x"}, {"XX", "x"}, {"", "x"}, {"x", ""}, {"a", "ab"},
		{"qa qA Qa QA", "qa"}, {"aq", "q"}, {"zzZ", "zz"},
		{"ctx.Done() CTX.DONE()", "ctx.done()"},
		{"é Éa éa", "éa"}, {"\xff\xfeA", "\xfea"},
		{eees + "EEX" + eees, "eex"},
		{eees + "eeX", "eex"},
		{eees, "eex"},
		{eees[:4095] + "EE" + eees, "eee" + strings.Repeat("e", 5000)},
		{strings.Repeat("ab", 5000) + "ABC", "abc"},
	}
	for _, c := range cases {
		if got, want := indexFold([]byte(c.text), c.lit), referenceIndexFold([]byte(c.text), c.lit); got != want {
			t.Errorf("indexFold(%.40q, %.40q) = %d; want %d", c.text, c.lit, got, want)
		}
		for _, lit := range []string{c.lit, strings.ToUpper(c.lit)} {
			if got, want := indexLiteral([]byte(c.text), lit, false), bytes.Index([]byte(c.text), []byte(lit)); got != want {
				t.Errorf("indexLiteral(%.40q, %.40q) = %d; want %d (bytes.Index)", c.text, lit, got, want)
			}
		}
	}
}

// FuzzIndexFold holds indexFold to the search in a lowered copy for any
// text and any lower-case ASCII literal, and indexLiteral without folding
// to bytes.Index for any literal.
func FuzzIndexFold(f *testing.F) {
	f.Add([]byte("Deadline Exceeded"), "exceeded")
	f.Add([]byte("eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeEX"), "ex")
	f.Fuzz(func(t *testing.T, text []byte, lit string) {
		if got, want := indexLiteral(text, lit, false), bytes.Index(text, []byte(lit)); got != want {
			t.Errorf("indexLiteral(%q, %q) = %d; want %d (bytes.Index)", text, lit, got, want)
		}
		lit = strings.ToLower(strings.Map(func(r rune) rune {
			if r >= 0x80 {
				return -1
			}
			return r
		}, lit))
		if got, want := indexFold(text, lit), referenceIndexFold(text, lit); got != want {
			t.Errorf("indexFold(%q, %q) = %d; want %d", text, lit, got, want)
		}
	})
}

// TestRarestByte: the byte a literal is looked for by is its rarest in
// source code: an upper-case letter before any lower-case one, a rare
// letter before a frequent one.
func TestRarestByte(t *testing.T) {
	for lit, want := range map[string]byte{
		"ctx.done()": 'x', "ctx.Done()": 'D', "ErrShortWrite": 'W', "ErrUnexpectedEOF": 'F',
		"ErrClosedPipe": 'P', "deadline exceeded": 'x', "err": 'r', "a": 'a', "\x00a": 0,
	} {
		if got := lit[rarestByte(lit)]; got != want {
			t.Errorf("rarestByte(%q) picks %q; want %q", lit, got, want)
		}
	}
}
