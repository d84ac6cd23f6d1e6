package matcher

import (
	"unicode"
	"unicode/utf8"
)

// Without a language named, a search reaches every language present in
// the paths, and a pattern written for one of them is often nonsense in the
// others: `if err != nil { return $$$ }` does not parse in bash or C, and
// Dockerfile reads it as a lone `=`, which then matches every `ARG a=b`.
// So when no language is given, the languages in which the pattern does not
// parse, or parses to a much smaller tree than the pattern, are skipped and
// named in one note (PatternSet.SkipUnparsed, Skipped). With a language named, the pattern is searched as
// parsed in it, as ast-grep does (docs/protocol.md, "Patterns that do not parse").

// unparsedIn reports why p should not be searched in a language the user
// did not name: "" when it parsed (a missing token the parser inserted is
// harmless and does not count), else a short reason.
func (p *Pattern) unparsedIn(opts Options) string {
	if p.syntaxProblem != nil && !p.syntaxProblem.missing {
		return "does not parse"
	}
	if opts.Selector != "" || p.root == nil {
		return "" // a selector picks a part of the pattern on purpose
	}
	if total, kept := nonSpaceRunes(p.Source), p.root.nonSpaceRunes(); kept*2 < total {
		return "parses to a fraction of it"
	}
	return ""
}

// nonSpaceRunes counts the characters of the pattern's tree that the
// matched node covers: its tokens and metavariables, not spaces.
func (n *patternNode) nonSpaceRunes() int {
	switch {
	case n.meta != nil:
		prefix := 1
		if n.meta.isEllipsis() {
			prefix = 3
		}
		return prefix + utf8.RuneCountInString(n.meta.name)
	case n.terminal:
		return nonSpaceRunes(n.text)
	}
	total := 0
	for _, c := range n.children {
		total += c.nonSpaceRunes()
	}
	return total
}

func nonSpaceRunes(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}
