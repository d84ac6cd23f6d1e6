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
// of the same structure. env is left as it was; on a match the returned Env
// holds env's bindings and the new ones.
func (p *Pattern) MatchWith(t *syntax.Tree, i int32, env *Env) (*Env, bool) {
	if p.rootSymbol >= 0 && int(t.Nodes[i].Symbol) != p.rootSymbol {
		return nil, false
	}
	m := matcher{p: p, t: t}
	out := env.clone()
	if out.Single == nil {
		out.Single = map[string]int32{}
	}
	if out.Multi == nil {
		out.Multi = map[string][]int32{}
	}
	if p.root.meta != nil {
		if p.Strictness != Smart && m.skipsExtra() && t.Nodes[i].IsExtra() {
			return nil, false
		}
		return out, m.bind(p.root.meta, i, out)
	}
	if m.matchNode(p.root, i, out) == matchedBoth {
		return out, true
	}
	return nil, false
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
