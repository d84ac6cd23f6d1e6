package matcher

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/structls/structls/syntax"
)

// syntaxProblem is the first ERROR or MISSING node in the part of a
// pattern's parse tree that is matched, located in the pattern as typed.
type syntaxProblem struct {
	missing      bool   // a MISSING node (else an ERROR node)
	what         string // the missing token's kind, or the text the ERROR covers
	line, column int    // 1-based; the column counts characters
}

// findSyntaxProblem returns the first ERROR or MISSING node, in pre-order,
// of the part of the pattern's parse tree that is matched: the subtree of
// root (after unwrapping or the selector), minus the metavariables, whose
// insides are never matched (`$$$` where Go wants a case clause parses as
// an ERROR: that is fine), and the tokens the parser inserted right after a
// metavariable (`{ $$$B }` in C parses as a declaration of type $$$B
// lacking its ";"). nil when that part parsed cleanly. An ERROR above root does not
// count either: Go parses `f($A)` as a call wrapped in an ERROR (a call
// cannot stand alone in a Go file), and the call is what is matched.
// parsed is the text the tree was parsed from: the pattern after
// preprocess, which replaces runes one for one, so rune offsets are the same
// in both.
func findSyntaxProblem(t *syntax.Tree, root int32, parsed, pattern string, metaChar rune) *syntaxProblem {
	stack := []int32{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &t.Nodes[i]
		switch {
		case metaVarOf(t, i, metaChar) != nil:
			continue
		case n.IsError() || n.IsMissing():
			return locate(t, i, parsed, pattern)
		}
		children := t.Children(i)
		for c := len(children) - 1; c >= 0; c-- { // pushed last first: popped in order
			if c > 0 && t.Nodes[children[c]].IsMissing() && metaVarOf(t, children[c-1], metaChar) != nil {
				continue // inserted after a metavariable, which stands for code the grammar cannot foresee
			}
			stack = append(stack, children[c])
		}
	}
	return nil
}

// locate describes node i of the pattern's tree as a syntaxProblem.
func locate(t *syntax.Tree, i int32, parsed, pattern string) *syntaxProblem {
	n := &t.Nodes[i]
	runes := []rune(pattern)
	start := min(utf8.RuneCountInString(parsed[:n.Start]), len(runes))
	end := min(utf8.RuneCountInString(parsed[:n.End]), len(runes))
	before := string(runes[:start])
	p := &syntaxProblem{missing: n.IsMissing(), what: t.Kind(i), line: strings.Count(before, "\n") + 1,
		column: utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1}
	if !p.missing {
		p.what = shorten(string(runes[start:end]), 40)
	}
	return p
}

// warning tells the user about the problem. Either way the pattern is
// searched as parsed, as ast-grep does, so results stay ast-grep's: a
// MISSING token is matched as if it were there (harmless, but worth
// knowing), while an ERROR node often matches nothing or something else
// than what was meant.
func (p *syntaxProblem) warning(language string) string {
	if p.missing {
		return fmt.Sprintf("in %s the pattern is incomplete: %q is missing at line %d, column %d; it was matched as if it were there",
			language, p.what, p.line, p.column)
	}
	return fmt.Sprintf("in %s the pattern does not parse: %q at line %d, column %d is a syntax error, and it was searched as one, "+
		"which may find nothing or unexpected code. Write complete code that parses (e.g. a whole statement or declaration) "+
		"and pick the node to match with selector (its kind, e.g. parameter_list or call_expression)", language, p.what, p.line, p.column)
}

// shorten cuts s to at most n runes, marking the cut with "…".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// metaVarOf is node i's metavariable, when its text is one. Only a text
// that starts with the meta character is copied to be read: copying every
// node's text made a pattern nested 50,000 deep take half a minute (each
// level's text holds all the levels below it).
func metaVarOf(t *syntax.Tree, i int32, metaChar rune) *metaVar {
	text := t.Text(i)
	if r, _ := utf8.DecodeRune(text); r != metaChar {
		return nil
	}
	return extractMetaVar(string(text), metaChar)
}
