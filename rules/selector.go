package rules

import (
	"fmt"
	"strings"

	"github.com/structls/structls/syntax"
)

// selectorRule is `kind` written as an ESQuery/CSS-like selector
// (`call_expression > arguments > number`, `:is(number, string)`). The
// matched node is the rightmost compound; selectors bind no metavariables.
type selectorRule struct {
	kinds kindSet
	list  selectorList
}

// match tests the selector on n; the nodes its combinators and :has
// reached become secondary labels, as ast-grep records them.
func (r selectorRule) match(s *state, n int32, e *env) bool {
	var rec []int32
	if !r.list.matches(s.t, n, &rec) {
		return false
	}
	e.secondary = s.withLabels(e.secondary, rec...)
	return true
}

// selectorList is `a, b`: any of the complex selectors.
type selectorList []complexSelector

// complexSelector is compounds joined by combinators, left to right:
// combinators[i] joins compounds[i] and compounds[i+1].
type complexSelector struct {
	compounds   []compound
	combinators []byte // ' ', '>', '+', '~'
}

// compound is a kind (or any kind) with pseudo-classes.
type compound struct {
	symbols map[uint16]bool // nil: any kind
	pseudos []pseudo
}

// pseudo is one of :has, :not, :is, :nth-child, :nth-last-child.
type pseudo struct {
	name   string
	list   selectorList
	direct bool // :has(> …)
	nth    nthChildRule
}

// matches tests the list on n, appending the nodes reached to rec on a match.
func (l selectorList) matches(t *syntax.Tree, n int32, rec *[]int32) bool {
	for _, c := range l {
		if c.matches(t, n, len(c.compounds)-1, rec) {
			return true
		}
	}
	return false
}

// try runs a test with a scratch record, kept only when the test passes.
func try(rec *[]int32, test func(*[]int32) bool) bool {
	var scratch []int32
	if !test(&scratch) {
		return false
	}
	*rec = append(*rec, scratch...)
	return true
}

// matches tests compounds[:i+1] with compounds[i] on node n.
func (c complexSelector) matches(t *syntax.Tree, n int32, i int, rec *[]int32) bool {
	var own []int32
	if !c.compounds[i].matches(t, n, &own) {
		return false
	}
	if i > 0 && !c.left(t, n, i, &own) {
		return false
	}
	*rec = append(*rec, own...)
	return true
}

// left finds the node compounds[i-1] must match, by the combinator.
func (c complexSelector) left(t *syntax.Tree, n int32, i int, rec *[]int32) bool {
	reached := func(p int32) bool {
		return try(rec, func(r *[]int32) bool {
			if !c.matches(t, p, i-1, r) {
				return false
			}
			*r = append(*r, p)
			return true
		})
	}
	switch c.combinators[i-1] {
	case '>':
		p := t.Nodes[n].Parent
		return p >= 0 && reached(p)
	case ' ':
		for p := t.Nodes[n].Parent; p >= 0; p = t.Nodes[p].Parent {
			if reached(p) {
				return true
			}
		}
		return false
	}
	prev, _ := siblingsOf(t, n)
	if c.combinators[i-1] == '+' {
		return prev >= 0 && reached(prev)
	}
	for ; prev >= 0; prev, _ = siblingsOf(t, prev) {
		if reached(prev) {
			return true
		}
	}
	return false
}

func (c compound) matches(t *syntax.Tree, n int32, rec *[]int32) bool {
	if c.symbols != nil && !c.symbols[t.Nodes[n].Symbol] {
		return false
	}
	for _, p := range c.pseudos {
		if !p.matches(t, n, rec) {
			return false
		}
	}
	return true
}

func (p pseudo) matches(t *syntax.Tree, n int32, rec *[]int32) bool {
	found := func(c int32) bool {
		return try(rec, func(r *[]int32) bool {
			if !p.list.matches(t, c, r) {
				return false
			}
			*r = append(*r, c)
			return true
		})
	}
	switch p.name {
	case "not":
		var scratch []int32
		return !p.list.matches(t, n, &scratch)
	case "is":
		return try(rec, func(r *[]int32) bool { return p.list.matches(t, n, r) })
	case "has":
		if p.direct {
			for c := t.Nodes[n].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
				if found(c) {
					return true
				}
			}
			return false
		}
		for i, end := n+1, subtreeEnd(t, n); i < end; i++ {
			if found(i) {
				return true
			}
		}
		return false
	}
	return p.nth.match(&state{t: t}, n, newEnv())
}

// listRule adapts a selector list to a matchRule (nthChild's `of`).
type listRule struct{ list selectorList }

func (r listRule) match(s *state, n int32, _ *env) bool {
	var scratch []int32
	return r.list.matches(s.t, n, &scratch)
}

// compileSelector compiles a kind selector; its kinds are those of the
// rightmost compounds (none when one of them names no kind: rejected at
// the top level, as ast-grep).
func compileSelector(c *compiler, v *yamlValue, text string) (matchRule, error) {
	p := &selectorParser{c: c, v: v, src: text}
	list, err := p.list()
	if err == nil && p.pos < len(p.src) {
		err = p.errorf("unexpected %q", p.src[p.pos:])
	}
	if err != nil {
		return nil, err
	}
	return selectorRule{kinds: list.kinds(), list: list}, nil
}

func (l selectorList) kinds() kindSet {
	out := kindSet{symbols: map[uint16]bool{}}
	for _, cs := range l {
		last := cs.compounds[len(cs.compounds)-1]
		k := anyKind
		if last.symbols != nil {
			k = kindSet{symbols: last.symbols}
		}
		for _, p := range last.pseudos {
			if p.name == "is" {
				k = k.intersect(p.list.kinds())
			}
		}
		out = out.union(k)
	}
	return out
}

// selectorParser reads the selector syntax.
type selectorParser struct {
	c   *compiler
	v   *yamlValue
	src string
	pos int
}

func (p *selectorParser) errorf(format string, args ...any) error {
	return p.c.errorf(p.v, "kind selector %q: %s (write kinds joined by ' ', '>', '+', '~' or ',', with :has, :not, :is, :nth-child)", p.src, fmt.Sprintf(format, args...))
}

func (p *selectorParser) skipSpaces() bool {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	return p.pos > start
}

func (p *selectorParser) list() (selectorList, error) {
	var out selectorList
	for {
		p.skipSpaces()
		cs, err := p.complex()
		if err != nil {
			return nil, err
		}
		out = append(out, cs)
		p.skipSpaces()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		return out, nil
	}
}

func (p *selectorParser) complex() (complexSelector, error) {
	var cs complexSelector
	for {
		comp, err := p.compound()
		if err != nil {
			return cs, err
		}
		cs.compounds = append(cs.compounds, comp)
		spaced := p.skipSpaces()
		if p.pos >= len(p.src) || p.src[p.pos] == ',' || p.src[p.pos] == ')' {
			return cs, nil
		}
		comb := byte(' ')
		if ch := p.src[p.pos]; ch == '>' || ch == '+' || ch == '~' {
			comb = ch
			p.pos++
			p.skipSpaces()
		} else if !spaced {
			return cs, p.errorf("unexpected %q", p.src[p.pos:])
		}
		cs.combinators = append(cs.combinators, comb)
	}
}

func (p *selectorParser) compound() (compound, error) {
	var comp compound
	start := p.pos
	for p.pos < len(p.src) && (isNameByte(p.src[p.pos])) {
		p.pos++
	}
	if name := p.src[start:p.pos]; name != "" {
		symbols, err := p.c.kindSymbols(p.v, name)
		if err != nil {
			return comp, err
		}
		comp.symbols = symbols
	} else if p.pos < len(p.src) && p.src[p.pos] == '*' {
		p.pos++
	}
	for p.pos < len(p.src) && (p.src[p.pos] == ':' || p.src[p.pos] == '.') {
		if p.src[p.pos] == '.' {
			return comp, p.errorf("class selectors (.x) are not supported")
		}
		ps, err := p.pseudo()
		if err != nil {
			return comp, err
		}
		comp.pseudos = append(comp.pseudos, ps)
	}
	if comp.symbols == nil && len(comp.pseudos) == 0 && (start == p.pos) {
		return comp, p.errorf("a kind name is expected at %q", p.src[p.pos:])
	}
	return comp, nil
}

func isNameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}

func (p *selectorParser) pseudo() (pseudo, error) {
	p.pos++ // ':'
	start := p.pos
	for p.pos < len(p.src) && (isNameByte(p.src[p.pos]) || p.src[p.pos] == '-') {
		p.pos++
	}
	ps := pseudo{name: p.src[start:p.pos]}
	if p.pos >= len(p.src) || p.src[p.pos] != '(' {
		return ps, p.errorf(":%s needs an argument in parentheses", ps.name)
	}
	p.pos++
	p.skipSpaces()
	var err error
	switch ps.name {
	case "has":
		if p.pos < len(p.src) && p.src[p.pos] == '>' {
			ps.direct = true
			p.pos++
		}
		ps.list, err = p.list()
	case "not", "is":
		ps.list, err = p.list()
	case "nth-child", "nth-last-child":
		ps.name, ps.nth.reverse = "nth", ps.name == "nth-last-child"
		end := strings.IndexByte(p.src[p.pos:], ')')
		if end < 0 {
			return ps, p.errorf("unclosed (")
		}
		arg := p.src[p.pos : p.pos+end]
		formula, of, hasOf := strings.Cut(arg, " of ")
		if ps.nth.step, ps.nth.offset, err = parseNth(formula); err != nil {
			return ps, p.errorf("%v", err)
		}
		if hasOf {
			sub := &selectorParser{c: p.c, v: p.v, src: strings.TrimSpace(of)}
			list, err := sub.list()
			if err != nil {
				return ps, err
			}
			ps.nth.of = listRule{list: list}
		}
		p.pos += end
	default:
		return ps, p.errorf("unknown pseudo-class :%s", ps.name)
	}
	if err != nil {
		return ps, err
	}
	p.skipSpaces()
	if p.pos >= len(p.src) || p.src[p.pos] != ')' {
		return ps, p.errorf("unclosed (")
	}
	p.pos++
	return ps, nil
}
