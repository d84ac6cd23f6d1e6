package grep

import (
	"encoding/binary"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// prefilter is a necessary condition for a match, read off the parsed regex
// (the idea of codesearch's index/regexp.go, without the index): every
// match contains, for each clause, at least one of the clause's literals.
// A file that fails it is never run through the regex.
//
// When the regex folds case somewhere, all literals are lower-cased and
// looked for ASCII case-insensitively (indexFold): still a necessary
// condition, because lowering both sides keeps every occurrence.
type prefilter struct {
	clauses [][]string // AND of ORs; empty: no condition (every file is a candidate)
	fold    bool
}

// maxExact bounds the sets of exact strings tracked through concatenation
// and alternation before they degrade to clauses.
const maxExact = 16

// litInfo describes what a sub-expression is known to match.
type litInfo struct {
	exact   []string   // every string it can match, when few; nil if unknown
	clauses [][]string // literals required by every match
}

func extractPrefilter(expr string) prefilter {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return prefilter{}
	}
	re = re.Simplify()
	pf := prefilter{fold: hasFold(re)}
	info := analyze(re, pf.fold)
	pf.clauses = info.allClauses()
	return pf
}

func hasFold(re *syntax.Regexp) bool {
	if re.Flags&syntax.FoldCase != 0 && (re.Op == syntax.OpLiteral || re.Op == syntax.OpCharClass) {
		return true
	}
	return slices.ContainsFunc(re.Sub, hasFold)
}

// allClauses returns the required clauses, the exact set counting as one.
func (l litInfo) allClauses() [][]string {
	out := slices.Clone(l.clauses)
	if c := exactClause(l.exact); c != nil {
		out = append(out, c)
	}
	return out
}

// exactClause turns a set of exact strings into a clause, or nil when one
// of them is empty (the empty string is in every text: no condition).
func exactClause(exact []string) []string {
	if len(exact) == 0 || slices.Contains(exact, "") {
		return nil
	}
	return exact
}

func analyze(re *syntax.Regexp, fold bool) litInfo {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if !fold {
			return litInfo{exact: []string{s}}
		}
		return foldedLiteral(s)
	case syntax.OpCharClass:
		return charClass(re, fold)
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return litInfo{exact: []string{""}}
	case syntax.OpCapture:
		return analyze(re.Sub[0], fold)
	case syntax.OpPlus:
		return litInfo{clauses: analyze(re.Sub[0], fold).allClauses()}
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return litInfo{clauses: analyze(re.Sub[0], fold).allClauses()}
		}
	case syntax.OpConcat:
		return concat(re.Sub, fold)
	case syntax.OpAlternate:
		return alternate(re.Sub, fold)
	}
	return litInfo{} // star, quest, any char: no knowledge
}

// foldedLiteral handles a case-folded literal. Lower-casing both sides keeps
// it necessary, except for 'k' and 's', which also fold to the non-ASCII
// KELVIN SIGN and LONG S: the literal is split there into required pieces.
func foldedLiteral(s string) litInfo {
	lower := strings.ToLower(s)
	for _, r := range lower {
		if r >= utf8.RuneSelf {
			return litInfo{}
		}
	}
	pieces := strings.FieldsFunc(lower, func(r rune) bool { return r == 'k' || r == 's' })
	if len(pieces) == 1 && pieces[0] == lower {
		return litInfo{exact: []string{lower}}
	}
	var info litInfo
	for _, p := range pieces {
		info.clauses = append(info.clauses, []string{p})
	}
	return info
}

func charClass(re *syntax.Regexp, fold bool) litInfo {
	var set []string
	for i := 0; i+1 < len(re.Rune); i += 2 {
		for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
			if len(set) >= maxExact || r >= utf8.RuneSelf {
				return litInfo{}
			}
			s := string(r)
			if fold {
				s = strings.ToLower(s)
			}
			if !slices.Contains(set, s) {
				set = append(set, s)
			}
		}
	}
	return litInfo{exact: set}
}

func concat(subs []*syntax.Regexp, fold bool) litInfo {
	var out litInfo
	cur, allExact, flushed := []string{""}, true, false
	flush := func() {
		flushed = true
		if c := exactClause(cur); c != nil {
			out.clauses = append(out.clauses, c)
		}
		cur = []string{""}
	}
	for _, sub := range subs {
		info := analyze(sub, fold)
		if info.exact != nil && len(cur)*len(info.exact) <= maxExact {
			cur = cross(cur, info.exact)
			continue
		}
		flush()
		if info.exact != nil {
			cur = info.exact
		} else {
			allExact = false
		}
		out.clauses = append(out.clauses, info.clauses...)
	}
	if allExact && !flushed {
		return litInfo{exact: cur}
	}
	flush()
	return out
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

// alternate: exact if every branch is exact; otherwise one clause made of
// the best clause of each branch (a match satisfies one branch).
func alternate(subs []*syntax.Regexp, fold bool) litInfo {
	var exact, clause []string
	allExact := true
	for _, sub := range subs {
		info := analyze(sub, fold)
		if info.exact != nil && allExact {
			exact = append(exact, info.exact...)
		} else {
			allExact = false
		}
		best := bestClause(info.allClauses())
		if best == nil {
			return litInfo{}
		}
		clause = append(clause, best...)
	}
	if allExact && len(exact) <= maxExact {
		return litInfo{exact: exact}
	}
	return litInfo{clauses: [][]string{clause}}
}

// bestClause picks the clause whose shortest literal is longest: the most selective.
func bestClause(clauses [][]string) []string {
	var best []string
	bestLen := -1
	for _, c := range clauses {
		if n := minLen(c); n > bestLen {
			best, bestLen = c, n
		}
	}
	return best
}

func minLen(c []string) int {
	n := -1
	for _, s := range c {
		if n < 0 || len(s) < n {
			n = len(s)
		}
	}
	return n
}

// fileMayMatch reports whether text holds a literal of every clause.
func (p prefilter) fileMayMatch(text []byte) bool {
	for _, clause := range p.clauses {
		if !slices.ContainsFunc(clause, func(lit string) bool { return p.index(text, lit) >= 0 }) {
			return false
		}
	}
	return true
}

// index returns the index of the first occurrence of lit in text, compared
// ASCII case-insensitively when the prefilter folds case, or -1.
func (p prefilter) index(text []byte, lit string) int { return indexLiteral(text, lit, p.fold) }

// asciiLower writes the ASCII-lower-cased text into buf (reused) and returns
// it (indexFold's fallback). It lowers eight bytes at a time: in each byte
// lane, adding to the low seven bits sets the lane's top bit when the byte
// is at least 'A', or above 'Z', without a carry into the next lane; a byte
// that is at least 'A', not above 'Z', and ASCII gets 0x20 added.
func asciiLower(buf, text []byte) []byte {
	buf = slices.Grow(buf[:0], len(text))[:len(text)]
	const (
		ones = 0x0101010101010101
		low7 = 0x7f * ones
		high = 0x80 * ones
	)
	i := 0
	for ; i+8 <= len(text); i += 8 {
		x := binary.NativeEndian.Uint64(text[i:])
		heptets := x & low7
		atLeastA := heptets + (0x80-'A')*ones
		aboveZ := heptets + (0x80-'Z'-1)*ones
		upper := atLeastA &^ aboveZ &^ x & high
		binary.NativeEndian.PutUint64(buf[i:], x|upper>>2)
	}
	for ; i < len(text); i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return buf
}
