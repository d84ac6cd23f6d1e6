package grep

import (
	"bytes"
)

// Literal search by the rarest byte. The prefilter looks for its literals
// in every file a search reads. bytes.Index scans for a literal's first
// byte, which in source code is often a frequent one ('c' of "ctx.Done()"),
// and a case-insensitive search lowered each file into a copy first (a pass
// writing fresh memory as large as the largest file). indexLiteral instead
// jumps between occurrences of the literal's rarest byte (in either case
// when folding) with IndexByte, which runs at memory speed, and compares
// the literal there.

// indexFold returns the index of the first occurrence of lit, lower-case
// ASCII, in text compared ASCII case-insensitively (as bytes.Index of lit
// in the ASCII-lower-cased text would), or -1.
func indexFold(text []byte, lit string) int { return indexLiteral(text, lit, true) }

// indexLiteral returns the index of the first occurrence of lit in text,
// compared ASCII case-insensitively when fold (lit is then lower-case), or -1.
func indexLiteral(text []byte, lit string, fold bool) int {
	switch {
	case len(lit) == 0:
		return 0
	case len(lit) > len(text):
		return -1
	}
	i := rarestByte(lit)
	lower, upper := lit[i], lit[i]
	if fold && 'a' <= lower && lower <= 'z' {
		upper = lower - ('a' - 'A')
	}
	// nextLower and nextUpper are the next occurrences of each case at or
	// after from (len(text) when there is none), found when from passes them.
	nextLower, nextUpper := -1, -1
	if upper == lower {
		nextUpper = len(text)
	}
	misses := 0
	for from := i; ; {
		if nextLower < from {
			nextLower = indexByteFrom(text, from, lower)
		}
		if nextUpper < from {
			nextUpper = indexByteFrom(text, from, upper)
		}
		at := min(nextLower, nextUpper)
		if at == len(text) {
			return -1
		}
		if start := at - i; start+len(lit) <= len(text) && equalAt(text[start:start+len(lit)], lit, fold) {
			return start
		}
		// A literal whose every byte is frequent meets a false candidate at
		// nearly every byte: past a few, a search without candidates takes over.
		if misses++; misses > 64 && misses > (at-i)/16 {
			j := -1
			if fold {
				j = indexLowered(text[at-i:], lit)
			} else {
				j = bytes.Index(text[at-i:], []byte(lit))
			}
			if j >= 0 {
				return at - i + j
			}
			return -1
		}
		from = at + 1
	}
}

// indexLowered is indexFold by lowering text a chunk at a time and looking
// for lit in each chunk with bytes.Index: linear whatever the bytes, and it
// costs the distance to the first occurrence, not the whole text (the
// scanner looks for one occurrence after another).
func indexLowered(text []byte, lit string) int {
	chunk := max(4096, 2*len(lit))
	buf, want := make([]byte, 0, chunk), []byte(lit)
	for start := 0; ; {
		end := min(len(text), start+chunk)
		if j := bytes.Index(asciiLower(buf, text[start:end]), want); j >= 0 {
			return start + j
		}
		if end == len(text) {
			return -1
		}
		start = end - (len(lit) - 1) // an occurrence across the chunks' boundary is in the next one
	}
}

// indexByteFrom returns the index of c in text at or after from, or len(text).
func indexByteFrom(text []byte, from int, c byte) int {
	if i := bytes.IndexByte(text[from:], c); i >= 0 {
		return from + i
	}
	return len(text)
}

// equalAt reports whether b equals lit, lower-cased (ASCII) first when fold.
func equalAt(b []byte, lit string, fold bool) bool {
	if !fold {
		return string(b) == lit
	}
	return equalFoldASCII(b, lit)
}

// equalFoldASCII reports whether b, lower-cased (ASCII), equals lit.
func equalFoldASCII(b []byte, lit string) bool {
	for j := range len(lit) {
		c := b[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[j] {
			return false
		}
	}
	return true
}

// rarestByte returns the index of the byte of lit least frequent in source
// code and prose, by byteRarity.
func rarestByte(lit string) int {
	best := 0
	for j := 1; j < len(lit); j++ {
		if byteRarity[lit[j]] > byteRarity[lit[best]] {
			best = j
		}
	}
	return best
}

// byteRarity ranks the bytes, rarest highest: first the bytes that fill
// source code and prose (blanks, lower-case letters by their frequency in
// English, the commonest punctuation, digits), then upper-case letters in
// the same order, then every other byte.
var byteRarity = func() (rank [256]uint8) {
	const common = " \n\tetaoinsrhldcu.(),;=_pmfg\"yw/b*v:-{}[]01k2x>#<'jq3&z4+56789!|%$?@\\^`~"
	const letters = "etaoinsrhldcupmfgywbvkxjqz"
	for c := range rank {
		rank[c] = uint8(len(common) + len(letters))
	}
	for i := range len(letters) {
		rank[letters[i]-('a'-'A')] = uint8(len(common) + i)
	}
	for i := range len(common) {
		rank[common[i]] = uint8(i)
	}
	return rank
}()
