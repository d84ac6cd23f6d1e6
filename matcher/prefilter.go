package matcher

import "bytes"

// mayMatch reports whether content holds every literal of the pattern, and
// every keyword as a whole word: the cheap test that keeps most files from
// being parsed at all. A literal made of word characters (an identifier, a
// number) must occur as a whole word too: it is the text of a whole token,
// and a lexer never reads such a token out of a longer run of them (`make`
// is not in `makeValAndOff`).
func (p *Pattern) mayMatch(content []byte) bool {
	if p.Strictness == Signature {
		return true // text is not compared
	}
	for _, lit := range p.literals {
		found := false
		if isWord(lit) {
			found = containsWord(content, lit)
		} else {
			found = bytes.Contains(content, []byte(lit))
		}
		if !found {
			return false
		}
	}
	for _, kw := range p.keywords {
		if !containsWord(content, kw) {
			return false
		}
	}
	return true
}

// containsWord reports whether word occurs in text where a lexer could read
// it as a keyword token: not followed by a letter, digit or underscore, and
// not preceded by a run of them that starts with a letter or underscore (an
// identifier the word would be the end of). A lexer reads such runs longest
// first, so a keyword token never continues or ends one; a run that starts
// with a digit is a number, which can end right before a keyword (Python
// reads 0xfor as 0xf or). Other bytes, non-ASCII ones included, count as
// boundaries: when unsure, the file is parsed.
func containsWord(text []byte, word string) bool {
	for from := 0; ; {
		i := bytes.Index(text[from:], []byte(word))
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(word)
		if (end == len(text) || !isWordByte(text[end])) && !identifierEndsAt(text, start) {
			return true
		}
		from = start + 1
	}
}

// identifierEndsAt reports whether text[:i] ends in a run of word bytes that
// starts with a letter or underscore.
func identifierEndsAt(text []byte, i int) bool {
	j := i
	for j > 0 && isWordByte(text[j-1]) {
		j--
	}
	return j < i && !(text[j] >= '0' && text[j] <= '9')
}

// isWord reports whether s is made of word bytes only (and is not empty).
func isWord(s string) bool {
	for i := range len(s) {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return s != ""
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}
