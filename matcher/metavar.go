package matcher

import "strings"

// metaKind is what a metavariable does (ast-grep's MetaVariable).
type metaKind int

const (
	metaCapture      metaKind = iota // $A: one node, bound to A
	metaDropped                      // $_: one node, not bound
	metaMultiCapture                 // $$$A: zero or more nodes, bound to A
	metaMultiple                     // $$$: zero or more nodes, not bound
)

// metaVar is a metavariable of a pattern. named: $A matches named nodes
// only; $$A may match anonymous tokens too.
type metaVar struct {
	kind  metaKind
	name  string
	named bool
}

func (m *metaVar) isEllipsis() bool { return m.kind == metaMultiCapture || m.kind == metaMultiple }

// extractMetaVar reads a node's whole text as a metavariable written with the
// sigil c ("$" or the language's expando), or returns nil. Names are upper
// case letters, digits and "_", not starting with a digit (except after
// the three sigils of an ellipsis).
func extractMetaVar(text string, c rune) *metaVar {
	one := string(c)
	if rest, ok := strings.CutPrefix(text, one+one+one); ok {
		switch {
		case rest == "":
			return &metaVar{kind: metaMultiple}
		case !isMetaChars(rest):
			return nil
		case rest[0] == '_':
			return &metaVar{kind: metaMultiple}
		}
		return &metaVar{kind: metaMultiCapture, name: rest}
	}
	named := true
	rest, ok := strings.CutPrefix(text, one+one)
	if ok {
		named = false
	} else if rest, ok = strings.CutPrefix(text, one); !ok {
		return nil
	}
	if rest == "" || !isMetaChars(rest) || (rest[0] >= '0' && rest[0] <= '9') {
		return nil
	}
	if rest[0] == '_' {
		return &metaVar{kind: metaDropped, named: named}
	}
	return &metaVar{kind: metaCapture, name: rest, named: named}
}

func isMetaChars(s string) bool {
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// preprocess rewrites the "$" of metavariables to the expando character, so
// grammars that do not accept "$" in identifiers still parse the pattern:
// a run of "$" becomes expandos when an upper-case letter or "_" follows
// it, or when it is "$$$". Other "$" stay (PHP's $x, Bash's $1, …).
func preprocess(pattern string, expando rune) string {
	if expando == 0 || expando == '$' {
		return pattern
	}
	var b strings.Builder
	run := 0
	flush := func(replace bool) {
		ch := "$"
		if replace {
			ch = string(expando)
		}
		b.WriteString(strings.Repeat(ch, run))
		run = 0
	}
	for _, r := range pattern {
		if r == '$' {
			run++
			continue
		}
		flush(r >= 'A' && r <= 'Z' || r == '_' || run == 3)
		b.WriteRune(r)
	}
	flush(run == 3)
	return b.String()
}
