package outline

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// Entry is one extracted declaration, in byte offsets: what Extract returns
// before positions are mapped into an encoding.
type Entry struct {
	Name       string
	SymbolType string
	LSPKind    string // "" for SymbolType's usual kind
	Receiver   string // a method's receiver type (Go), for its document symbol name
	Decl       workspace.ByteRange
	NameRange  workspace.ByteRange
	Signature  string
	AstKind    string
	IsExported bool
	IsImport   bool
	Members    []Entry
}

// maxNameBytes and maxSignatureBytes bound what one entry copies out of a
// file, so a minified line or a giant string literal cannot bloat a result.
const (
	maxNameBytes      = 256
	maxSignatureBytes = 512
)

// Extract returns the outline of a parsed file: its top-level entries in
// source order, each with its members. spec is the language's table; a nil
// spec (a language without a symbol notion) gives no entries.
func Extract(t *syntax.Tree, spec *Spec) []Entry { return extractSelected(t, spec, nil) }

// extractSelected is Extract keeping only the top-level entries selected
// accepts (nil: all). selected sees an entry before its signature and
// members are made, which a rejected entry never costs.
func extractSelected(t *syntax.Tree, spec *Spec, selected func(*Entry) bool) []Entry {
	if spec == nil || len(t.Nodes) == 0 {
		return nil
	}
	stack := entryStacks.Get().(*[]Entry)
	x := &extraction{tree: t, v: newView(t), claimed: map[int32]bool{}, stack: (*stack)[:0], selected: selected}
	entries := x.apply(spec.Rules, 0)
	*stack = x.stack[:0]
	entryStacks.Put(stack)
	return entries
}

// entryStacks hold the stacks extractions build their entries on, so that
// a file's entries are allocated once, at their final size.
var entryStacks = sync.Pool{New: func() any { return new([]Entry) }}

// extraction is the state of one file's extraction.
type extraction struct {
	tree    *syntax.Tree
	v       view
	claimed map[int32]bool // declaration nodes a rule has already turned into entries
	module  moduleFacts
	// selected, when not nil, accepts the top-level entries to keep; the
	// others are still made (they claim their declarations, and count for
	// Once) but without signature or members, and apply drops them.
	selected func(*Entry) bool
	// stack holds the entries being built: each apply appends its own
	// above those of the applies it runs within, and takes them off again
	// when it returns them. Its memory is reused from file to file, so it
	// never holds an entry once Extract returns.
	stack []Entry
}

// apply runs rules from node from (the root, or an entry's declaration) and
// returns the entries in source order.
func (x *extraction) apply(rules []Rule, from int32) []Entry {
	base := len(x.stack)
	var found []int32
	for i := range rules {
		r := &rules[i]
		found = r.c.match.find(x.v, from, found[:0])
		for _, decl := range found {
			if x.claimed[decl] || x.tree.Nodes[decl].IsMissing() {
				continue
			}
			if x.pushEntries(r, decl, from, base) {
				x.claimed[decl] = true
			}
		}
	}
	mine := x.stack[base:]
	if len(mine) == 0 {
		return nil
	}
	slices.SortStableFunc(mine, func(a, b Entry) int { return a.Decl.Start - b.Decl.Start })
	var out []Entry
	for i := range mine {
		if from != 0 || x.selected == nil || x.selected(&mine[i]) {
			if out == nil {
				out = make([]Entry, 0, len(mine)-i)
			}
			out = append(out, mine[i])
		}
	}
	clear(mine) // the pooled stack keeps no strings alive
	x.stack = x.stack[:base]
	return out
}

// pushEntries turns one declaration into its entries, pushed on the stack:
// one, or one per name with EachName; none when the rule's name test fails
// or it has no name. With Once, a name and symbol type the entries of this
// apply (from base on) already hold is left out. It reports whether it
// pushed any.
func (x *extraction) pushEntries(r *Rule, decl, from int32, base int) bool {
	var one [1]int32
	names := one[:0]
	if r.Name == "" {
		names = append(names, decl)
	} else if r.EachName {
		names = r.c.name.find(x.v, decl, names)
	} else if n := r.c.name.first(x.v, decl); n >= 0 {
		names = append(names, n)
	}
	pushed := false
	for _, n := range names {
		name := r.Label
		if name == "" {
			name = x.nameText(n, r.Name == "" || r.Import)
		}
		if name == "" || name == r.NameIsNot || (r.c.nameIs != nil && !r.c.nameIs.MatchString(name)) {
			continue
		}
		if !r.c.cond.holds(x.v, decl, name, &x.module) {
			continue
		}
		if r.Once && slices.ContainsFunc(x.stack[base:], func(o Entry) bool { return o.Name == name && o.SymbolType == r.Symbol }) {
			continue
		}
		if r.c.exported.readsModule() {
			x.module.load(x.v)
		}
		nd, nn := &x.tree.Nodes[decl], &x.tree.Nodes[n]
		e := Entry{
			Name: name, SymbolType: r.Symbol, LSPKind: r.LSPKind,
			Decl:       workspace.ByteRange{Start: int(nd.Start), End: int(nd.End)},
			NameRange:  workspace.ByteRange{Start: int(nn.Start), End: int(nn.End)},
			AstKind:    x.tree.Kind(decl),
			IsExported: r.c.exported.holds(x.v, decl, name, &x.module),
			IsImport:   r.Import,
		}
		at := len(x.stack)
		x.stack = append(x.stack, e)
		pushed = true
		if from == 0 && x.selected != nil && !x.selected(&x.stack[at]) { // not &e, which would move e to the heap
			continue // dropped by apply: only its claim and name count
		}
		e.Signature = x.signature(r, decl, from == 0)
		if r.EndAt != "" {
			if end := r.c.endAt.first(x.v, decl); end >= 0 {
				e.Decl.End = int(x.tree.Nodes[end].End)
			}
		}
		if r.Receiver != "" {
			if recv := r.c.receiver.first(x.v, decl); recv >= 0 {
				e.Receiver = strings.Join(strings.Fields(string(x.tree.Text(recv))), " ")
			}
		}
		if len(r.Members) > 0 {
			e.Members = x.apply(r.Members, decl)
		}
		x.stack[at] = e // members were stacked above it, and taken off again
	}
	return pushed
}

// nameText is a name node's text on one line, without quotes (a module
// named by a string); a whole declaration used as its own name, or an
// import's path, loses its angle brackets too (C's <stdio.h>).
func (x *extraction) nameText(n int32, whole bool) string {
	text := unquote(string(bytes.TrimSpace(x.tree.Text(n))))
	if whole && len(text) >= 2 && text[0] == '<' && text[len(text)-1] == '>' {
		text = text[1 : len(text)-1]
	}
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		text = strings.TrimSpace(text[:i])
	}
	return truncate(text, maxNameBytes)
}

// unquote strips one pair of matching quotes around s (a string literal
// used as a name); a Haskell name like f' keeps its prime.
func unquote(s string) string {
	if len(s) >= 2 && strings.IndexByte("\"'`", s[0]) >= 0 && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// signature is the declaration's header: the text before its body when
// the rule names one, otherwise its first non-empty line; on one line. A
// top-level declaration's signature starts with the keyword of the
// statement holding it when both start on the same line (Go's "type" before
// a type spec, "export" before a class).
func (x *extraction) signature(r *Rule, decl int32, top bool) string {
	start, end := x.tree.Nodes[decl].Start, x.tree.Nodes[decl].End
	if top {
		outer := decl
		for p := x.tree.Nodes[outer].Parent; p > 0; p = x.tree.Nodes[p].Parent {
			outer = p
		}
		if bytes.IndexByte(x.tree.Source[x.tree.Nodes[outer].Start:start], '\n') < 0 { // on the same line
			start = x.tree.Nodes[outer].Start
		}
	}
	if r.Header != "" {
		if body := r.c.header.first(x.v, decl); body >= 0 {
			end = x.tree.Nodes[body].Start
			return oneLine(x.tree.Source[start:end], maxSignatureBytes)
		}
	}
	for line := range bytes.SplitSeq(x.tree.Source[start:end], []byte("\n")) {
		if l := bytes.TrimSpace(line); len(l) > 0 {
			return truncate(string(l), maxSignatureBytes)
		}
	}
	return ""
}

// oneLine is truncate(strings.Join(strings.Fields(string(b)), " "), n)
// in one pass, which reads no further than the cut: a header's words
// joined by single spaces, on one line.
func oneLine(b []byte, n int) string {
	out := make([]byte, 0, min(len(b), n+utf8.UTFMax))
	space := false
	for _, c := range b {
		switch {
		case c >= utf8.RuneSelf:
			return truncate(strings.Join(strings.Fields(string(b)), " "), n) // Unicode's spaces too
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			space = len(out) > 0
			continue
		case space:
			out = append(out, ' ')
			space = false
		}
		out = append(out, c)
		if len(out) > n {
			break
		}
	}
	return truncate(string(out), n)
}

// truncate cuts s to at most n bytes on a character boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// moduleFacts are file-wide facts some export tests need, loaded on first use.
type moduleFacts struct {
	loaded bool
	all    map[string]bool            // Python's __all__, nil when the module has none
	lists  map[string]map[string]bool // "listed:PATH" tests: the texts PATH reaches, nil for none
}

// listed returns the texts of the nodes path (whose source is src)
// reaches from the root, or nil when it reaches none.
func (m *moduleFacts) listed(v view, src string, path path) map[string]bool {
	if l, ok := m.lists[src]; ok {
		return l
	}
	var set map[string]bool
	for _, n := range path.find(v, 0, nil) {
		if set == nil {
			set = map[string]bool{}
		}
		set[string(v.t.Text(n))] = true
	}
	if m.lists == nil {
		m.lists = map[string]map[string]bool{}
	}
	m.lists[src] = set
	return set
}

// The paths to a Python module's __all__ = [...] (or a tuple).
var (
	pythonAssignments = parsePath("expression_statement/assignment|augmented_assignment")
	pythonAssignedTo  = parsePath("@left=identifier")
	pythonListed      = parsePath("@right=list|tuple/string")
)

// load reads a Python module's __all__ at the top level.
func (m *moduleFacts) load(v view) {
	if m.loaded {
		return
	}
	m.loaded = true
	for _, assign := range pythonAssignments.find(v, 0, nil) {
		left := pythonAssignedTo.first(v, assign)
		if left < 0 || string(v.t.Text(left)) != "__all__" {
			continue
		}
		if m.all == nil {
			m.all = map[string]bool{}
		}
		for _, s := range pythonListed.find(v, assign, nil) {
			m.all[strings.Trim(string(v.t.Text(s)), "\"'")] = true
		}
	}
}
