package matcher

import (
	"bytes"
	"context"
	"maps"
	"sync"

	"github.com/structls/structls/syntax"
)

// outcome of matching one pattern node against one candidate node.
type outcome int

const (
	matchedBoth outcome = iota
	skipBoth
	skipGoal
	skipCandidate
	noMatch
)

// Env holds the metavariable bindings of one match: node indexes into the
// candidate tree. A map is nil until something is bound in it.
//
// Most tries of a pattern fail (the candidates of a search, the lookahead
// past an ellipsis, a rule's pattern on the nodes of its kind), so they
// cost nothing until they bind, and little after:
//   - a try that must not change the Env it starts from runs on a copy of
//     the struct (share) whose maps are copied at its first binding
//     (unshare): a try that fails before binding copies nothing;
//   - a try that bound something and then failed gives its maps back
//     (recycle) to a pool the next binding takes its map from.
type Env struct {
	Single map[string]int32
	Multi  map[string][]int32
	// shared: the maps are another Env's too, to be copied before the
	// first binding.
	shared bool
}

// share returns a copy of e for a try whose bindings e must not see.
func (e *Env) share() Env {
	return Env{Single: e.Single, Multi: e.Multi, shared: true}
}

// setSingle binds a single-node metavariable.
func (e *Env) setSingle(name string, node int32) {
	e.unshare()
	if e.Single == nil {
		e.Single = singleMaps.Get().(map[string]int32)
	}
	e.Single[name] = node
}

// setMulti binds a multi-node metavariable.
func (e *Env) setMulti(name string, nodes []int32) {
	e.unshare()
	if e.Multi == nil {
		e.Multi = multiMaps.Get().(map[string][]int32)
	}
	e.Multi[name] = nodes
}

// unshare gives e maps of its own, copies of the ones it shares.
func (e *Env) unshare() {
	if e.shared {
		e.Single, e.Multi, e.shared = copyMap(&singleMaps, e.Single), copyMap(&multiMaps, e.Multi), false
	}
}

// recycle ends a try that failed: the maps it owns (none while it shares
// them) go back to the pools, as nothing else refers to them.
func (e *Env) recycle() {
	if !e.shared {
		if e.Single != nil {
			clear(e.Single)
			singleMaps.Put(e.Single)
		}
		if e.Multi != nil {
			clear(e.Multi)
			multiMaps.Put(e.Multi)
		}
	}
	*e = Env{}
}

// singleMaps and multiMaps hold the cleared maps of failed tries: a rule
// like `$X = $X` binds $X on every assignment, and most then fail.
var (
	singleMaps = sync.Pool{New: func() any { return map[string]int32{} }}
	multiMaps  = sync.Pool{New: func() any { return map[string][]int32{} }}
)

// copyMap returns a copy of m in a map of the pool (nil for nil).
func copyMap[V any](pool *sync.Pool, m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	out := pool.Get().(map[string]V)
	maps.Copy(out, m)
	return out
}

// matcher matches one pattern against one tree.
type matcher struct {
	p    *Pattern
	t    *syntax.Tree
	errK uint16 // the ERROR kind id in t
}

// MatchAt reports whether the pattern matches node i of the tree, and its bindings.
func (p *Pattern) MatchAt(t *syntax.Tree, i int32) (*Env, bool) {
	m := matcher{p: p, t: t}
	var env Env
	if !m.matchRoot(i, &env) {
		env.recycle()
		return nil, false
	}
	matched := env
	return &matched, true
}

// matchRoot matches the pattern at node i, binding into env.
func (m *matcher) matchRoot(i int32, env *Env) bool {
	p, t := m.p, m.t
	if p.rootSymbol >= 0 && int(t.Nodes[i].Symbol) != p.rootSymbol {
		return false
	}
	if p.root.meta != nil {
		// A root metavariable binds directly: in smart mode `$A` matches
		// comments too (ast-grep #2868); the other skipping levels do not.
		if p.Strictness != Smart && m.skipsExtra() && t.Nodes[i].IsExtra() {
			return false
		}
		return m.bind(p.root.meta, i, env)
	}
	return m.matchNode(p.root, i, env) == matchedBoth
}

// skipsExtra: the levels that pass over comments and other extras in the
// code where the pattern has a leaf or a metavariable.
func (m *matcher) skipsExtra() bool {
	s := m.p.Strictness
	return s == Smart || s == Relaxed || s == Signature || s == Template
}

func (m *matcher) kindsMatch(goal *patternNode, cand int32) bool {
	return goal.isError || goal.symbol == m.t.Nodes[cand].Symbol
}

// matchNode matches one pattern node against one candidate. A leaf or a
// metavariable of the pattern may skip an extra (a comment) in the code, as
// the strictness allows; an internal node needs the same kind (except in
// template mode) and never skips.
func (m *matcher) matchNode(goal *patternNode, cand int32, env *Env) outcome {
	switch {
	case goal.meta != nil:
		if m.skipsExtra() && m.t.Nodes[cand].IsExtra() {
			return skipCandidate
		}
		if m.bind(goal.meta, cand, env) {
			return matchedBoth
		}
		return noMatch
	case goal.terminal:
		return m.matchTerminal(goal, cand)
	}
	if m.p.Strictness != Template && !m.kindsMatch(goal, cand) {
		return noMatch
	}
	if m.matchChildren(goal.children, cand, env) {
		return matchedBoth
	}
	return noMatch
}

// matchTerminal compares a pattern leaf with a node: named leaves by kind and
// text, anonymous ones by kind only (tree-sitter-typescript gives some
// anonymous tokens wrong spans); then extras may be skipped, and each
// strictness decides what else may be: the pattern leaf (skipG), the code
// node (skipC), or both.
func (m *matcher) matchTerminal(goal *patternNode, cand int32) outcome {
	n := &m.t.Nodes[cand]
	kindOK := m.kindsMatch(goal, cand)
	if kindOK && (!goal.named || goal.text == string(m.t.Text(cand))) {
		return matchedBoth
	}
	if m.skipsExtra() && n.IsExtra() {
		return skipCandidate
	}
	var skipG, skipC bool
	switch m.p.Strictness {
	case Cst:
	case Smart:
		skipC = !n.IsNamed()
	case Ast, Relaxed:
		skipG, skipC = !goal.named, !n.IsNamed()
	case Signature:
		if kindOK {
			return matchedBoth
		}
		skipG, skipC = !goal.named, !n.IsNamed()
	case Template:
		if goal.text == string(m.t.Text(cand)) {
			return matchedBoth
		}
		skipC = !n.IsNamed()
	}
	switch {
	case skipG && skipC:
		return skipBoth
	case skipG:
		return skipGoal
	case skipC:
		return skipCandidate
	}
	return noMatch
}

// skipTrailing: may this candidate follow the last matched goal?
func (m *matcher) skipTrailing(cand int32) bool {
	n := &m.t.Nodes[cand]
	switch m.p.Strictness {
	case Smart:
		return true
	case Ast:
		return !n.IsNamed()
	case Relaxed, Signature:
		return !n.IsNamed() || n.IsExtra()
	case Template:
		return n.IsExtra()
	}
	return false
}

// skipGoals: may these goals remain unmatched when the candidates run out?
func (m *matcher) skipGoals(goals []*patternNode) bool {
	for _, g := range goals {
		ok := false
		switch m.p.Strictness {
		case Smart, Template:
			ok = g.meta != nil && g.meta.isEllipsis()
		case Ast, Relaxed, Signature:
			switch {
			case g.meta != nil:
				ok = g.meta.isEllipsis() || !g.meta.named
			case g.terminal:
				ok = !g.named
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// matchChildren matches the goals against the children of parent in order
// (ast-grep's match_nodes_impl_recursive): trivia is skipped as the
// strictness allows, and an ellipsis takes candidates lazily — up to the
// first one the next goal matches — without backtracking. The candidates
// are visited by following the sibling links, c being the next one (-1
// past the last): the walk only moves forward, so the children need not be
// listed, which allocated on every try that reached them.
func (m *matcher) matchChildren(goals []*patternNode, parent int32, env *Env) bool {
	nodes := m.t.Nodes
	c := nodes[parent].FirstChild
	if c < 0 {
		return false
	}
	// trial is the copy of env the goal after an ellipsis is tried on.
	// Declared outside the loops, it stays on the stack: the address of a
	// variable of a loop, passed down the recursion, escapes to the heap.
	var trial Env
	g := 0
	for {
		// (a) an ellipsis goal
		if g == len(goals) {
			return true
		}
		if goals[g].meta != nil && goals[g].meta.isEllipsis() {
			ellipsis := goals[g]
			g++
			matchedFrom := c
			if g == len(goals) {
				return m.bindEllipsis(ellipsis, matchedFrom, -1, 0, env)
			}
			skipped := 0
			for goals[g].isTrivial() {
				g++
				skipped++
				if g == len(goals) {
					return m.bindEllipsis(ellipsis, matchedFrom, -1, skipped, env)
				}
			}
			if next := goals[g]; next.meta != nil && next.meta.isEllipsis() {
				c = nodes[c].NextSibling // two ellipses in a row: the first takes exactly one node
				if c < 0 || !m.bindEllipsis(ellipsis, matchedFrom, c, skipped, env) {
					return false
				}
				continue
			}
			for {
				trial = env.share()
				matched := m.matchNode(goals[g], c, &trial) == matchedBoth
				trial.recycle()
				if matched {
					if !m.bindEllipsis(ellipsis, matchedFrom, c, skipped, env) {
						return false
					}
					break
				}
				c = nodes[c].NextSibling
				if c < 0 {
					return false
				}
			}
		}
		// (b) one goal against the next candidates, skipping trivia
	single:
		for {
			if c < 0 {
				if !m.skipGoals(goals[g:]) {
					return false
				}
				g = len(goals)
				break
			}
			switch m.matchNode(goals[g], c, env) {
			case matchedBoth:
				break single
			case skipGoal:
				g++
				if g == len(goals) {
					break single
				}
			case skipBoth:
				c = nodes[c].NextSibling
				g++
				if g == len(goals) {
					break single
				}
			case skipCandidate:
				c = nodes[c].NextSibling
			case noMatch:
				return false
			}
		}
		// (c) advance past the matched pair
		if g < len(goals) {
			g++
			c = nodes[c].NextSibling
		}
		if g == len(goals) {
			for ; c >= 0; c = nodes[c].NextSibling {
				if !m.skipTrailing(c) {
					return false
				}
			}
			return true
		}
		if c < 0 {
			return false
		}
	}
}

// bindEllipsis binds $$$NAME to the siblings from `from` up to `to` (-1:
// to the last), minus the anonymous goals that followed it (their
// candidates are trimmed from the end).
func (m *matcher) bindEllipsis(goal *patternNode, from, to int32, skipped int, env *Env) bool {
	if goal.meta.kind != metaMultiCapture {
		return true
	}
	n := -skipped
	for c := from; c != to; c = m.t.Nodes[c].NextSibling {
		n++
	}
	var nodes []int32
	if n > 0 {
		nodes = make([]int32, 0, n)
		for c := from; len(nodes) < n; c = m.t.Nodes[c].NextSibling {
			nodes = append(nodes, c)
		}
	}
	return m.bindMulti(goal.meta.name, nodes, env)
}

// bind binds a single-node metavariable; a name bound before must be bound
// to a node of the same structure (and then takes the newer node).
func (m *matcher) bind(mv *metaVar, cand int32, env *Env) bool {
	if mv.named && !m.t.Nodes[cand].IsNamed() {
		return false
	}
	switch mv.kind {
	case metaDropped, metaMultiple:
		return true
	case metaMultiCapture:
		return m.bindMulti(mv.name, []int32{cand}, env)
	}
	if old, ok := env.Single[mv.name]; ok && !m.sameStructure(old, cand) {
		return false
	}
	env.setSingle(mv.name, cand)
	return true
}

func (m *matcher) bindMulti(name string, nodes []int32, env *Env) bool {
	if old, ok := env.Multi[name]; ok {
		a, b := m.namedOnly(old), m.namedOnly(nodes)
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if !m.sameStructure(a[i], b[i]) {
				return false
			}
		}
	}
	env.setMulti(name, nodes)
	return true
}

func (m *matcher) namedOnly(nodes []int32) []int32 {
	var out []int32
	for _, n := range nodes {
		if m.t.Nodes[n].IsNamed() {
			out = append(out, n)
		}
	}
	return out
}

// sameStructure is ast-grep's does_node_match_exactly: the same node, or equal
// text when either is a named leaf, or equal kinds and pairwise-equal children.
// It walks with its own stack, not recursion: code may nest 100,000 deep.
// The stack starts in an array of its frame, room enough for most
// comparisons (`$X = $X` on every assignment): they allocate nothing.
func (m *matcher) sameStructure(a, b int32) bool {
	type pair struct{ a, b int32 }
	var room [32]pair
	pending := append(room[:0], pair{a, b})
	for len(pending) > 0 {
		p := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if p.a == p.b {
			continue
		}
		na, nb := &m.t.Nodes[p.a], &m.t.Nodes[p.b]
		if m.namedChildCount(p.a) == 0 || m.namedChildCount(p.b) == 0 {
			if !bytes.Equal(m.t.Text(p.a), m.t.Text(p.b)) {
				return false
			}
			continue
		}
		if na.Symbol != nb.Symbol || m.t.ChildCount(p.a) != m.t.ChildCount(p.b) {
			return false
		}
		for ca, cb := na.FirstChild, nb.FirstChild; ca >= 0; ca, cb = m.t.Nodes[ca].NextSibling, m.t.Nodes[cb].NextSibling {
			pending = append(pending, pair{ca, cb})
		}
	}
	return true
}

func (m *matcher) namedChildCount(i int32) int {
	n := 0
	for c := m.t.Nodes[i].FirstChild; c >= 0; c = m.t.Nodes[c].NextSibling {
		if m.t.Nodes[c].IsNamed() {
			n++
		}
	}
	return n
}

// FindAll calls fn for every node of the tree the pattern matches, in
// pre-order (outer matches before the matches nested in them).
func (p *Pattern) FindAll(t *syntax.Tree, fn func(node int32, env *Env)) {
	_ = p.FindEach(context.Background(), t, func(node int32, env *Env) bool { fn(node, env); return true })
}

// cancelCheckEvery is how many nodes FindEach visits between looks at its
// context: often enough to stop within a millisecond on a huge tree, rarely
// enough to cost nothing in the tight loop over nodes of the wrong kind.
const cancelCheckEvery = 256

// FindEach calls fn for every match in pre-order until fn returns false,
// and stops with ctx's error when ctx ends: a query over a huge file must
// stop when it is cancelled, not when the walk of its tree is done. The
// context is looked at every cancelCheckEvery nodes and after every match
// (fn may be costly: it may build the match).
func (p *Pattern) FindEach(ctx context.Context, t *syntax.Tree, fn func(node int32, env *Env) bool) error {
	done := ctx.Done()
	m := matcher{p: p, t: t}
	for i := range t.Nodes {
		if i%cancelCheckEvery == 0 && isDone(done) {
			return ctx.Err()
		}
		if p.rootSymbol >= 0 && int(t.Nodes[i].Symbol) != p.rootSymbol {
			continue
		}
		var env Env
		if !m.matchRoot(int32(i), &env) {
			env.recycle() // its maps serve the next candidates
			continue
		}
		matched := env // fn may keep it
		if !fn(int32(i), &matched) {
			return nil
		}
		if isDone(done) {
			return ctx.Err()
		}
	}
	return nil
}

// isDone reports whether done (a context's Done channel, nil for a context
// that never ends) is closed, without blocking.
func isDone(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}
