package matcher

import (
	"fmt"

	"github.com/structls/structls/syntax"
)

// This file is what package rules needs of a compiled pattern beyond the
// astGrep search: matching with bindings made earlier, the one kind a match
// can have, and the literal prefilter.

// MatchWith is MatchAt for a pattern that is one part of a larger rule: a
// metavariable already bound in env (by an earlier part) must match a node
// of the same structure. On a match env holds its bindings and the new
// ones, in maps of its own once it has new ones; env's maps are never
// written, so copies of env (other tries of the rule) keep theirs. On no
// match env is left as it was, and the try allocated nothing unless it
// bound something first (see Env).
func (p *Pattern) MatchWith(t *syntax.Tree, i int32, env *Env) bool {
	m := matcher{p: p, t: t}
	try := env.share()
	if !m.matchRoot(i, &try) {
		try.recycle()
		return false
	}
	if !try.shared { // it bound something
		*env = try
	}
	return true
}

// RootSymbol returns the kind id every match of the pattern has, and false
// when a match may have any kind (a lone metavariable, an ERROR root, or
// template strictness).
func (p *Pattern) RootSymbol() (uint16, bool) {
	return uint16(p.rootSymbol), p.rootSymbol >= 0
}

// MayMatch reports whether content holds every literal and keyword of the
// pattern: false means no node of the file can match, so it need not be
// parsed for this pattern.
func (p *Pattern) MayMatch(content []byte) bool { return p.mayMatch(content) }

// ruleContexts are the contexts a rule's pattern object can use for the
// constructs of ambiguities, as one line of YAML.
var ruleContexts = map[string]string{"go": "func t() { %s }", "c": "void t(void) { %s; }", "cpp": "void t() { %s; }"}

// AmbiguityHint says how to write the pattern as a rule's pattern object
// when, compiled as written, it parses into a construct that is rarely what
// is meant (a Go call read as a type conversion, a C call as a macro type),
// so it matches none of the nodes its author had in mind; "" otherwise.
func (p *Pattern) AmbiguityHint() string {
	kind := p.rootKind()
	for _, a := range ambiguities[p.Lang.Name] {
		if a.rootKind == kind && a.want != "" {
			context := fmt.Sprintf(ruleContexts[p.Lang.Name], p.Source)
			return fmt.Sprintf("the pattern %q parses as a %s in %s, so it matches no %s: write pattern: {context: %q, selector: %s}",
				p.Source, kind, p.Lang.Name, a.want, context, a.want)
		}
	}
	return ""
}
