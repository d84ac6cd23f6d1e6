package rules

import (
	"regexp"
	"slices"
	"unicode/utf8"

	"github.com/structls/structls/grep"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/syntax"
)

// env is the state of one match in progress: the metavariable bindings
// (shared with package matcher) and the nodes relational rules matched,
// which become the finding's secondary labels.
//
// Neither is written in place: a binding makes new maps (package matcher's
// MatchWith copies them at its first binding, exportVars copies), and a
// label new secondary slices in the state's label store (withLabels), so a
// copy of an env is a copy of the struct.
type env struct {
	vars      matcher.Env
	secondary []int32
	// returned is 1 + the node the rule last matched gives back when that
	// is not the node it was tried on, else 0. As in ast-grep, a
	// relational rule gives back the node its sub-rule gave back on the
	// candidate (so `has: {has: {pattern: $L}}` gives back the inner
	// match), `any` and `matches` what their rule gave back, and `all`,
	// `not` and the atomic rules the node itself; the node a relational
	// rule gives back is its secondary label.
	returned int32
}

// newEnv returns an empty environment.
func newEnv() *env { return &env{} }

// clone returns a copy of e that e does not see changes of.
func (e *env) clone() *env {
	c := *e
	return &c
}

// tryOn runs r on node n against a copy of e; on a match e takes the copy's
// bindings. This is how every rule that may fail without spoiling the
// bindings (any, not, relational candidates) runs its sub-rules.
func tryOn(s *state, r matchRule, n int32, e *env) bool {
	c := s.scratch(e)
	ok := r.match(s, n, c)
	if ok {
		*e = *c
	}
	s.release(c)
	return ok
}

// state is what matching over one tree needs.
type state struct {
	t *syntax.Tree
	// depth counts nested util calls: recursion through relational rules
	// is allowed (has-await inside has-await), so it is bounded here.
	depth int
	// frames are the calls of utils with arguments under way, innermost last.
	frames []argFrame
	// done is the check's context's Done channel; steps counts the
	// candidates relational rules tried, so that a rule nesting has inside
	// has over a huge tree still stops soon after the context ends.
	done    <-chan struct{}
	steps   int
	stopped bool
	// stepLimit, when not 0, bounds the steps of one rule at one node
	// (maxMatchSteps): stepsUsed counts them, and overLimit is set when
	// they run out, which fails every relational rule still under way.
	stepLimit, stepsUsed int
	overLimit            bool
	// rewrites counts the rewrite transforms of the finding being built,
	// transformText the bytes its transforms produced.
	rewrites      int
	transformText int
	// export is the export environment of the innermost call of a util
	// with arguments under way (nil outside one).
	export *env
	// free holds the envs scratch hands out again: a check tries rules on
	// most nodes, and most tries fail, so their copies are reused rather
	// than allocated each time.
	free []*env
	// labels holds the secondary labels of the envs of the rule being
	// tried at a node (withLabels); Check empties it before each rule at
	// each node, once the finding of the one before has copied its labels.
	labels []int32
}

// withLabels returns the labels sec followed by more, in a new slice of the
// state's label store that nothing else refers to: a relational rule that
// matched records its candidate there, and most such matches are tries in
// a rule that then fails, where a slice of their own allocated each time.
func (s *state) withLabels(sec []int32, more ...int32) []int32 {
	start := len(s.labels)
	s.labels = append(s.labels, sec...)
	s.labels = append(s.labels, more...)
	return s.labels[start:len(s.labels):len(s.labels)]
}

// scratch returns a copy of from (an empty env when from is nil) that the
// caller hands back with release once nothing refers to it any more.
func (s *state) scratch(from *env) *env {
	var c *env
	if k := len(s.free); k > 0 {
		c, s.free = s.free[k-1], s.free[:k-1]
	} else {
		c = new(env)
	}
	if from == nil {
		*c = env{}
	} else {
		*c = *from
	}
	return c
}

// release hands back an env scratch returned.
func (s *state) release(c *env) { s.free = append(s.free, c) }

// step counts one candidate of a relational rule or one util call and
// reports whether the evaluation must stop: the check's context ended, or
// the rule used up its steps at this node.
func (s *state) step() bool {
	s.steps++
	if s.steps%1024 == 0 && isDone(s.done) {
		s.stopped = true
	}
	if s.stepLimit > 0 {
		if s.stepsUsed++; s.stepsUsed > s.stepLimit {
			s.overLimit = true
		}
	}
	return s.stopped || s.overLimit
}

// limitSteps starts a rule's evaluation at a node: up to limit steps.
func (s *state) limitSteps(limit int) {
	s.stepLimit, s.stepsUsed, s.overLimit = limit, 0, false
}

// maxUtilDepth bounds recursive util calls on one node chain.
const maxUtilDepth = 512

// matchRule is one compiled rule object or part of one. match tests node n
// and may add bindings to e; on false, e may hold partial bindings, so
// callers that go on after a failure pass a copy (tryOn).
type matchRule interface {
	match(s *state, n int32, e *env) bool
}

// patternRule is `pattern`.
type patternRule struct{ p *matcher.Pattern }

// maxPrefilteredText bounds the node text patternRule and regexRule look
// for literals in before matching: below it the look is cheaper than a
// failed match, above it the look could cost more, and nested nodes (a
// long chain of a || b || …) would be read again and again.
const maxPrefilteredText = 256

func (r patternRule) match(s *state, n int32, e *env) bool {
	if sym, ok := r.p.RootSymbol(); ok && s.t.Nodes[n].Symbol != sym {
		return false
	}
	if text := s.t.Text(n); len(text) <= maxPrefilteredText && !r.p.MayMatch(text) {
		return false // a match's text holds every literal of the pattern
	}
	return r.p.MatchWith(s.t, n, &e.vars)
}

// kindRule is `kind` with a plain kind name: any of the symbols that name
// has in the grammar. The ids are few (one, or two for a kind a grammar
// aliases), and this runs on most candidates of relational rules: a slice,
// not a map.
type kindRule struct{ symbols []uint16 }

func (r kindRule) match(s *state, n int32, _ *env) bool {
	return slices.Contains(r.symbols, s.t.Nodes[n].Symbol)
}

// regexRule is `regex`: an unanchored search over the node's text. On
// short text (maxPrefilteredText) the regex runs only when the text holds
// its required literals: most nodes a rule like `kind: comment, regex:
// TODO` is tried on fail that test alone. Long text goes to the regex
// straight away: an anchored one (^init$) fails at its first byte, where
// the look for literals would read the whole text.
type regexRule struct {
	re       *regexp.Regexp
	literals grep.Literals
}

func newRegexRule(re *regexp.Regexp) regexRule {
	return regexRule{re: re, literals: grep.RequiredLiterals(re.String())}
}

func (r regexRule) match(s *state, n int32, _ *env) bool {
	text := s.t.Text(n)
	if len(text) <= maxPrefilteredText && !r.literals.MayMatch(text) {
		return false
	}
	return r.re.Match(text)
}

// nthChildRule is `nthChild`: the node's 1-based place among its named
// siblings (those matching of, when set), counted from the end with reverse.
type nthChildRule struct {
	step, offset int
	reverse      bool
	of           matchRule
}

func (r nthChildRule) match(s *state, n int32, e *env) bool {
	t := s.t
	node := &t.Nodes[n]
	if node.Parent < 0 || !node.IsNamed() {
		return false
	}
	if r.of != nil && !tryOn(s, r.of, n, e) {
		return false
	}
	index, count := 0, 0 // n's position among the siblings that count, and their number
	for c := t.Nodes[node.Parent].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		if !t.Nodes[c].IsNamed() {
			continue
		}
		if c != n && r.of != nil && !r.matchesOf(s, c) {
			continue
		}
		count++
		if c == n {
			index = count
		}
	}
	if r.reverse {
		index = count - index + 1
	}
	if r.step == 0 {
		return index == r.offset
	}
	d := index - r.offset
	return d/r.step >= 0 && d%r.step == 0
}

// matchesOf reports whether a sibling matches the `ofRule` of nthChild
// (in an environment of its own: siblings bind nothing).
func (r nthChildRule) matchesOf(s *state, sibling int32) bool {
	e := s.scratch(nil)
	defer s.release(e)
	return r.of.match(s, sibling, e)
}

// rangeRule is `range`: the node starts and ends exactly there (lines
// 0-based, columns in characters; a missing column is not checked).
type rangeRule struct {
	startLine, endLine int
	startCol, endCol   int // -1 when not given
}

func (r rangeRule) match(s *state, n int32, _ *env) bool {
	sp, ep := s.t.StartPoint(n), s.t.EndPoint(n)
	if int(sp.Row) != r.startLine || int(ep.Row) != r.endLine {
		return false
	}
	node := &s.t.Nodes[n]
	if r.startCol >= 0 && charColumn(s.t.Source, int(node.Start), int(sp.Column)) != r.startCol {
		return false
	}
	return r.endCol < 0 || charColumn(s.t.Source, int(node.End), int(ep.Column)) == r.endCol
}

// allRule is `all`, and every rule object of several keys: each member in
// order, bindings flowing left to right.
type allRule struct{ members []matchRule }

func (r allRule) match(s *state, n int32, e *env) bool {
	for _, m := range r.members {
		if !m.match(s, n, e) {
			return false
		}
	}
	e.returned = 0
	return true
}

// anyRule is `any`: the first member that matches supplies the bindings.
type anyRule struct{ members []matchRule }

func (r anyRule) match(s *state, n int32, e *env) bool {
	for _, m := range r.members {
		e.returned = 0
		if tryOn(s, m, n, e) {
			return true
		}
	}
	return false
}

// notRule is `not`: it never exports bindings.
type notRule struct{ inner matchRule }

func (r notRule) match(s *state, n int32, e *env) bool {
	c := s.scratch(e)
	defer s.release(c)
	e.returned = 0
	return !r.inner.match(s, n, c)
}

// utilRef is `matches`: a utility rule, filled in once every util of the
// document is compiled (utils may refer to each other). A global util runs
// in a fresh environment: its bindings are not exported (as ast-grep).
type utilRef struct {
	id     string
	target *util
	at     *yamlValue // where it was written, for errors
}

// util is one compiled utility rule.
type util struct {
	id     string
	rule   matchRule
	global bool
	params []string // the declared arguments of a global util, sorted
	kinds  kindSet
	// kindsState guards the kind computation against cycles.
	kindsState int
}

func (r *utilRef) match(s *state, n int32, e *env) bool {
	if s.depth >= maxUtilDepth || s.step() {
		return false
	}
	s.depth++
	defer func() { s.depth-- }()
	if r.target.global {
		fresh := s.scratch(nil)
		defer s.release(fresh)
		if !r.target.rule.match(s, n, fresh) {
			return false
		}
		e.returned = fresh.returned
		return true
	}
	return r.target.rule.match(s, n, e)
}

// trueRule matches every node: an empty stopBy and the like.
type trueRule struct{}

func (trueRule) match(*state, int32, *env) bool { return true }

// charColumn converts a byte column (of the point at offset off) into
// characters, as ast-grep's range rule counts.
func charColumn(src []byte, off, byteColumn int) int {
	return utf8.RuneCount(src[off-byteColumn : off])
}
