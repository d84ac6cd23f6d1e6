package rules

import (
	"slices"

	"github.com/structls/structls/syntax"
)

// relKind names the four relational rules.
type relKind int

const (
	relInside relKind = iota
	relHas
	relPrecedes
	relFollows
)

var relNames = [...]string{"inside", "has", "precedes", "follows"}

// stopMode is how far a relational rule looks: the neighbour only, to the
// end, or until (and including) a node matching a rule.
type stopMode int

const (
	stopNeighbor stopMode = iota
	stopEnd
	stopAtRule
)

// relation is `inside`, `has`, `precedes` or `follows`: the sub-rule is
// tried on other nodes (ancestors, descendants, later or earlier siblings);
// the first candidate that matches wins, its bindings join the match and
// the candidate becomes a secondary label. It also serves fix's
// expandStart (follows-like) and expandEnd (precedes-like).
type relation struct {
	kind     relKind
	sub      matchRule
	stop     stopMode
	stopRule matchRule
	field    uint16 // a field id of the grammar; 0 for none
}

func (r *relation) match(s *state, n int32, e *env) bool {
	_, ok := r.find(s, n, e)
	return ok
}

// find returns the first candidate the sub-rule matches.
func (r *relation) find(s *state, n int32, e *env) (int32, bool) {
	found := int32(-1)
	try := func(c int32) bool {
		if s.step() {
			return true // stop looking: the check is cancelled
		}
		e.returned = 0
		if tryOn(s, r.sub, c, e) {
			found = c
			label := c
			if e.returned != 0 {
				label = e.returned - 1
			}
			e.secondary = s.withLabels(e.secondary, label)
			e.returned = label + 1
			return true
		}
		return false
	}
	stops := func(c int32) bool {
		if r.stop != stopAtRule {
			return false
		}
		copied := s.scratch(e)
		defer s.release(copied)
		return r.stopRule.match(s, c, copied)
	}
	switch r.kind {
	case relInside:
		r.ancestors(s.t, n, try, stops)
	case relHas:
		r.descendants(s.t, n, try, stops)
	case relPrecedes:
		r.siblings(s.t, n, true, try, stops)
	case relFollows:
		r.siblings(s.t, n, false, try, stops)
	}
	return found, found >= 0 && !s.stopped && !s.overLimit
}

// ancestors tries the parent, or with stopBy every ancestor nearest first;
// with field, an ancestor counts only if the node the search came up
// through fills that field in it.
func (r *relation) ancestors(t *syntax.Tree, n int32, try, stops func(int32) bool) {
	for from, p := n, t.Nodes[n].Parent; p >= 0; from, p = p, t.Nodes[p].Parent {
		if r.field == 0 || t.Nodes[from].Field == r.field {
			if try(p) {
				return
			}
		}
		if r.stop == stopNeighbor || stops(p) {
			return
		}
	}
}

// descendants tries the children, or with stopBy all descendants in
// pre-order (a node matching the stop rule is tried but not entered); with
// field, only the child filling it (and, stopping at the end, its subtree;
// at a rule, its direct children).
func (r *relation) descendants(t *syntax.Tree, n int32, try, stops func(int32) bool) {
	if r.field != 0 {
		c := fieldChild(t, n, r.field)
		if c < 0 || try(c) || r.stop == stopNeighbor {
			return
		}
		if r.stop == stopEnd {
			for i, end := c+1, subtreeEnd(t, c); i < end; i++ {
				if try(i) {
					return
				}
			}
			return
		}
		if stops(c) {
			return
		}
		for k := t.Nodes[c].FirstChild; k >= 0; k = t.Nodes[k].NextSibling {
			if try(k) {
				return
			}
		}
		return
	}
	if r.stop == stopNeighbor {
		for c := t.Nodes[n].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			if try(c) {
				return
			}
		}
		return
	}
	for i, end := n+1, subtreeEnd(t, n); i < end; {
		if try(i) {
			return
		}
		if stops(i) {
			i = subtreeEnd(t, i)
			continue
		}
		i++
	}
}

// siblings tries the next (forward) or previous sibling, or with stopBy all
// of them, nearest first.
func (r *relation) siblings(t *syntax.Tree, n int32, forward bool, try, stops func(int32) bool) {
	var order []int32
	if forward {
		for c := t.Nodes[n].NextSibling; c >= 0; c = t.Nodes[c].NextSibling {
			order = append(order, c)
		}
	} else if p := t.Nodes[n].Parent; p >= 0 {
		for c := t.Nodes[p].FirstChild; c >= 0 && c != n; c = t.Nodes[c].NextSibling {
			order = append(order, c)
		}
		slices.Reverse(order)
	}
	for _, c := range order {
		if try(c) || r.stop == stopNeighbor || stops(c) {
			return
		}
	}
}

// fieldChild returns the first child of n filling field, or -1.
func fieldChild(t *syntax.Tree, n int32, field uint16) int32 {
	for c := t.Nodes[n].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Field == field {
			return c
		}
	}
	return -1
}

// subtreeEnd returns the index just past n's subtree: nodes are stored in
// pre-order, so n's descendants are the indexes between n and it.
func subtreeEnd(t *syntax.Tree, n int32) int32 {
	for m := n; m >= 0; m = t.Nodes[m].Parent {
		if next := t.Nodes[m].NextSibling; next >= 0 {
			return next
		}
	}
	return int32(len(t.Nodes))
}
