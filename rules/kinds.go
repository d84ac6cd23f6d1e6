package rules

import "fmt"

// kindSet is the kinds a rule's matches can have (ast-grep's potential
// kinds): the combined scan tries a rule only on nodes of these kinds. any
// means "no set": the rule may match a node of any kind.
type kindSet struct {
	any     bool
	symbols map[uint16]bool
}

var anyKind = kindSet{any: true}

func (k kindSet) intersect(o kindSet) kindSet {
	switch {
	case k.any:
		return o
	case o.any:
		return k
	}
	out := kindSet{symbols: map[uint16]bool{}}
	for s := range k.symbols {
		if o.symbols[s] {
			out.symbols[s] = true
		}
	}
	return out
}

func (k kindSet) union(o kindSet) kindSet {
	if k.any || o.any {
		return anyKind
	}
	out := kindSet{symbols: map[uint16]bool{}}
	for s := range k.symbols {
		out.symbols[s] = true
	}
	for s := range o.symbols {
		out.symbols[s] = true
	}
	return out
}

// errCycle reports utils that refer to themselves through matches, all,
// any or not (recursion through a relational rule is fine).
type errCycle struct{ id string }

func (e errCycle) Error() string {
	return fmt.Sprintf("util `%s` has a cyclic dependency in its `matches` sub-rule: break the cycle, or recurse only through inside/has/precedes/follows", e.id)
}

// kindsOf computes a rule's kind set (ast-grep's potential kinds).
func kindsOf(r matchRule) (kindSet, error) {
	switch r := r.(type) {
	case patternRule:
		if s, ok := r.p.RootSymbol(); ok {
			return kindSet{symbols: map[uint16]bool{s: true}}, nil
		}
		return anyKind, nil
	case kindRule:
		out := kindSet{symbols: map[uint16]bool{}}
		for _, s := range r.symbols {
			out.symbols[s] = true
		}
		return out, nil
	case selectorRule:
		return r.kinds, nil
	case nthChildRule:
		if r.of != nil {
			return kindsOf(r.of)
		}
		return anyKind, nil
	case allRule:
		out := anyKind
		for _, m := range r.members {
			k, err := kindsOf(m)
			if err != nil {
				return anyKind, err
			}
			out = out.intersect(k)
		}
		return out, nil
	case anyRule:
		out := kindSet{symbols: map[uint16]bool{}}
		for _, m := range r.members {
			k, err := kindsOf(m)
			if err != nil {
				return anyKind, err
			}
			out = out.union(k)
		}
		return out, nil
	case notRule:
		_, err := kindsOf(r.inner) // for the cycle check only
		return anyKind, err
	case *utilRef:
		return r.target.kindSet()
	case *utilCall:
		return r.ref.target.kindSet()
	case constrainedRule:
		return kindsOf(r.rule)
	}
	return anyKind, nil
}

// kindSet computes (once) a util's kinds, detecting cycles.
func (u *util) kindSet() (kindSet, error) {
	switch u.kindsState {
	case 1:
		return anyKind, errCycle{id: u.id}
	case 2:
		return u.kinds, nil
	}
	u.kindsState = 1
	k, err := kindsOf(u.rule)
	if err != nil {
		return anyKind, err
	}
	u.kinds, u.kindsState = k, 2
	return k, nil
}

// textFilter is a necessary condition on the text holding a match: a
// pattern's literals and keywords, a regex's required literals.
type textFilter interface {
	MayMatch(text []byte) bool
}

// requiredFilters returns the conditions every match of r meets: those of
// r's own pattern or regex, or of the members of its top-level `all`. The
// matched node's text holds the match, and the file's text holds the node.
func requiredFilters(r matchRule) []textFilter {
	switch r := r.(type) {
	case patternRule:
		return []textFilter{r.p}
	case regexRule:
		if r.literals.Empty() {
			return nil
		}
		return []textFilter{r.literals}
	case allRule:
		var out []textFilter
		for _, m := range r.members {
			out = append(out, requiredFilters(m)...)
		}
		return out
	}
	return nil
}

// mayMatch reports whether content meets every required condition of the
// rule: false means the file holds no match.
func (r *Rule) mayMatch(content []byte) bool {
	for _, f := range r.required {
		if !f.MayMatch(content) {
			return false
		}
	}
	return true
}
