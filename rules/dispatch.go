package rules

import (
	"slices"
	"sort"

	"github.com/structls/structls/lang"
)

// dispatchTable lists, for one language, the rules to try on each node
// kind, each list sorted as ast-grep's scan orders them (rules without a
// fix first, then by id). The combined scan looks a node's kind up in it
// for every node of every file, so the lists sit in a slice indexed by
// kind id, not a map.
type dispatchTable struct {
	// rules are the language's rules (not off), in scan order.
	rules []*Rule
	// bySymbol[k] are the indexes in rules of those a node of kind id k
	// can match; ERROR nodes, whose id is far beyond the others, have
	// onError.
	bySymbol [][]int
	onError  []int
}

// candidates returns the indexes in t.rules of the rules to try on a node
// of kind id symbol.
func (t *dispatchTable) candidates(symbol uint16) []int {
	if symbol == errorSymbol {
		return t.onError
	}
	if int(symbol) < len(t.bySymbol) {
		return t.bySymbol[symbol]
	}
	return nil
}

// table returns the dispatch table of language l, built on first use.
func (s *RuleSet) table(l *lang.Language) *dispatchTable {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.dispatch[l]; ok {
		return t
	}
	t := &dispatchTable{}
	for _, r := range s.Rules {
		if r.Language == l && r.Severity != SeverityOff {
			t.rules = append(t.rules, r)
		}
	}
	sort.SliceStable(t.rules, func(i, j int) bool {
		if t.rules[i].hasFix != t.rules[j].hasFix {
			return !t.rules[i].hasFix
		}
		return t.rules[i].ID < t.rules[j].ID
	})
	for i, r := range t.rules {
		for sym := range r.core.kinds.symbols {
			if sym == errorSymbol {
				t.onError = append(t.onError, i)
				continue
			}
			if int(sym) >= len(t.bySymbol) {
				t.bySymbol = slices.Grow(t.bySymbol, int(sym)+1-len(t.bySymbol))[:sym+1]
			}
			t.bySymbol[sym] = append(t.bySymbol[sym], i)
		}
	}
	if s.dispatch == nil {
		s.dispatch = map[*lang.Language]*dispatchTable{}
	}
	s.dispatch[l] = t
	return t
}
