package outline

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/structls/structls/matcher/syntax"
)

// Rule says how one kind of declaration becomes an outline entry. Rules are
// data: each language's table (lang_*.go) is a list of them, tried in order,
// and the first rule that claims a node wins, so a general rule can follow
// the special cases it should not cover.
//
// Paths (Match, Name, and the arguments of the has:/lacks: predicates) are
// steps separated by "/", each step selecting children of the node reached
// so far:
//
//	kind          children of that kind (named, or an anonymous token such as "pub")
//	a|b           children of either kind
//	@field        children filling that field
//	@field=a|b    children filling that field, of one of those kinds
//	*             any named child
//	^             the parent (in tests: a declarator's declaration)
//	**            this node and every named descendant, in pre-order (C's
//	              declarators nest: `*names[]`)
//	~a|b          this node and every descendant reached through nodes of
//	              these kinds only (Python's module level: through if, for,
//	              with and try blocks, not into functions and classes)
//	STEP#N        only the Nth child the step selects (Clojure's name is the
//	              second symbol of `(defn name …)`)
//
// A top-level rule's Match starts at the file's root node; a member rule's
// Match starts at the entry that owns it.
type Rule struct {
	Match  string // path to the declaration node
	Symbol string // symbolType: function, method, class, struct, interface, enum, type, constant, variable, module, field, …
	// Name is the path from the declaration to its name node; "" is the
	// declaration itself (an import's path, a heading's text).
	Name string
	// Label, when set, is the name itself, for declarations that have none
	// (JavaScript's `export { a, b }` is "exports", as ast-grep names it).
	Label string
	// EachName makes one entry per name the Name path finds (Go's
	// `var a, b int`, which gopls lists as two symbols); otherwise the first.
	EachName bool
	// NameIs, when set, is a regular expression the name must match for the
	// rule to apply (Python's UPPER_CASE constants).
	NameIs string
	// If, when set, is a test (as in Exported) the declaration must pass for
	// the rule to apply: Go's "has:@type=struct_type" makes a struct.
	If string
	// Receiver, when set, is the path to a method's receiver type: the
	// document symbol is then named "(Receiver).Name", as gopls names it.
	Receiver string
	// Exported decides isExported (items) and public members (members):
	// "" or "always", "never", "upper" (the name starts with an upper-case
	// letter: Go), "public-name" (no leading underscore, or a dunder such
	// as __init__), "python" (listed in __all__ if the module has one,
	// otherwise public-name), "access:DEFAULT" (C++: the nearest
	// access_specifier label before the member says public, or there is
	// none and DEFAULT is "public"), "text:PATH~REGEX" (the node at PATH
	// has text the expression matches: Ruby's require), "listed:PATH"
	// (the name is the text of a node PATH reaches from the root, or PATH
	// reaches none: Haskell's export list), "has:PATH" or "lacks:PATH" (the
	// declaration has, or lacks, a node at PATH: Rust's pub, Java's public
	// modifier, C's static). Several tests joined by "&" must all hold.
	Exported string
	Import   bool // an import (isImport)
	// Once keeps only the first entry of a name and symbol type among its
	// siblings (Haskell's equations `f 0 = …; f n = …` are one function).
	Once    bool
	LSPKind string // the LSP SymbolKind, when it differs from Symbol's usual one (Go `type F func()`: function)
	// EndAt, when set, is the path to the node where the entry's range ends
	// (Go's embedded field ends at its type, before its tag, as in gopls).
	EndAt string
	// Header, when set, is the path to the body: the signature is then the
	// text before it, on one line; otherwise the declaration's first line.
	Header  string
	Members []Rule // entries one level down, with paths from this declaration
}

// step is one parsed path step.
type step struct {
	field  string   // "" for any field
	kinds  []string // nil for any kind
	named  bool     // "*": named children only
	parent bool     // "^": the parent instead of children
	deep   bool     // "**": this node and its named descendants
	nth    int      // "#N": only the Nth child selected; 0 for all
	// through, for "~a|b": this node and the descendants reached through
	// nodes of these kinds only
	through []string
}

type path []step

// paths and regexes hold what parsePath and compileRegex made, by source:
// every worker reads them for every declaration, so a read takes no lock.
var paths, regexes sync.Map // string → path, string → *regexp.Regexp

// parsePath parses a path once; malformed paths are programming errors in a
// language table, caught by the tests that run every table.
func parsePath(s string) path {
	if p, ok := paths.Load(s); ok {
		return p.(path)
	}
	var p path
	for _, part := range strings.Split(s, "/") {
		var st step
		if base, n, ok := strings.Cut(part, "#"); ok {
			part = base
			if _, err := fmt.Sscan(n, &st.nth); err != nil || st.nth < 1 {
				panic(fmt.Sprintf("outline: bad step %q in path %q", part+"#"+n, s))
			}
		}
		switch {
		case part == "*":
			st.named = true
		case part == "^":
			st.parent = true
		case part == "**":
			st.deep = true
		case strings.HasPrefix(part, "~"):
			st.through = strings.Split(part[1:], "|")
		case strings.HasPrefix(part, "@"):
			field, kinds, hasKinds := strings.Cut(part[1:], "=")
			st.field = field
			if hasKinds {
				st.kinds = strings.Split(kinds, "|")
			}
		default:
			st.kinds = strings.Split(part, "|")
		}
		p = append(p, st)
	}
	paths.Store(s, p)
	return p
}

// compileRegex compiles a regular expression of a language table once.
func compileRegex(s string) *regexp.Regexp {
	if re, ok := regexes.Load(s); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(s)
	regexes.Store(s, re)
	return re
}

// fieldNames caches each grammar's field names, indexed by field id.
var fieldNames sync.Map // *syntax.Tree's language → []string

func fieldName(t *syntax.Tree, id uint16) string {
	if id == 0 {
		return ""
	}
	if names, ok := fieldNames.Load(t.Lang); ok {
		if n := names.([]string); int(id) < len(n) {
			return n[id]
		}
		return ""
	}
	count := t.Lang.FieldCount()
	names := make([]string, count+1)
	for i := 1; i <= int(count); i++ {
		names[i] = t.Lang.FieldNameForId(uint16(i))
	}
	fieldNames.Store(t.Lang, names)
	if int(id) < len(names) {
		return names[id]
	}
	return ""
}

// matches reports whether child c of the tree fits the step.
func (s step) matches(t *syntax.Tree, c int32) bool {
	n := &t.Nodes[c]
	if s.named && !n.IsNamed() {
		return false
	}
	if n.IsExtra() && len(s.kinds) == 0 {
		return false // comments are never "any child"
	}
	if s.field != "" && fieldName(t, n.Field) != s.field {
		return false
	}
	if s.kinds == nil {
		return true
	}
	kind := t.Kind(c)
	for _, k := range s.kinds {
		if k == kind {
			return true
		}
	}
	return false
}

// find appends to out every node the path reaches from node from, in
// source order.
func (p path) find(t *syntax.Tree, from int32, out []int32) []int32 {
	if len(p) == 0 {
		return append(out, from)
	}
	if p[0].parent {
		if up := t.Nodes[from].Parent; up >= 0 {
			return p[1:].find(t, up, out)
		}
		return out
	}
	if p[0].through != nil {
		out = p[1:].find(t, from, out)
		for c := t.Nodes[from].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			if slices.Contains(p[0].through, t.Kind(c)) {
				out = p.find(t, c, out)
			}
		}
		return out
	}
	if p[0].deep {
		out = p[1:].find(t, from, out)
		for c := t.Nodes[from].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].IsNamed() {
				out = p.find(t, c, out)
			}
		}
		return out
	}
	seen := 0
	for c := t.Nodes[from].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		if p[0].matches(t, c) {
			if seen++; p[0].nth == 0 || p[0].nth == seen {
				out = p[1:].find(t, c, out)
			}
		}
	}
	return out
}

// first returns the first node the path reaches from node from, or -1.
func (p path) first(t *syntax.Tree, from int32) int32 {
	if len(p) == 0 {
		return from
	}
	if p[0].parent {
		if up := t.Nodes[from].Parent; up >= 0 {
			return p[1:].first(t, up)
		}
		return -1
	}
	if p[0].through != nil {
		if n := p[1:].first(t, from); n >= 0 {
			return n
		}
		for c := t.Nodes[from].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			if slices.Contains(p[0].through, t.Kind(c)) {
				if n := p.first(t, c); n >= 0 {
					return n
				}
			}
		}
		return -1
	}
	if p[0].deep {
		if n := p[1:].first(t, from); n >= 0 {
			return n
		}
		for c := t.Nodes[from].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].IsNamed() {
				if n := p.first(t, c); n >= 0 {
					return n
				}
			}
		}
		return -1
	}
	seen := 0
	for c := t.Nodes[from].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		if p[0].matches(t, c) {
			if seen++; p[0].nth != 0 && p[0].nth != seen {
				continue
			}
			if n := p[1:].first(t, c); n >= 0 {
				return n
			}
		}
	}
	return -1
}

// holds evaluates a test (a Rule's Exported or If) on the declaration node decl
// whose name is name. module holds what a file-wide test needs.
func holds(test string, t *syntax.Tree, decl int32, name string, module *moduleFacts) bool {
	for _, part := range strings.Split(test, "&") {
		if !holdsPart(part, t, decl, name, module) {
			return false
		}
	}
	return true
}

func holdsPart(test string, t *syntax.Tree, decl int32, name string, module *moduleFacts) bool {
	op, arg, _ := strings.Cut(test, ":")
	switch op {
	case "", "always":
		return true
	case "never":
		return false
	case "upper":
		r, _ := utf8.DecodeRuneInString(name)
		return unicode.IsUpper(r)
	case "python":
		if module.all != nil {
			return module.all[name]
		}
		return publicName(name)
	case "public-name":
		return publicName(name)
	case "access":
		return accessIsPublic(t, decl, arg)
	case "listed":
		listed := module.listed(t, arg)
		return listed == nil || listed[name]
	case "text":
		at, pattern, _ := strings.Cut(arg, "~")
		n := parsePath(at).first(t, decl)
		return n >= 0 && compileRegex(pattern).Match(t.Text(n))
	case "has":
		return parsePath(arg).first(t, decl) >= 0
	case "lacks":
		return parsePath(arg).first(t, decl) < 0
	}
	panic(fmt.Sprintf("outline: unknown export test %q", test))
}

// publicName reports whether a name is public by the underscore convention
// (Python, Dart, Ruby's idiom): no leading underscore, or a dunder.
func publicName(name string) bool {
	return !strings.HasPrefix(name, "_") || (strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") && len(name) > 4)
}

// accessIsPublic reports whether a C++ member is public: the last
// access_specifier before it among its siblings says so, or there is none
// and the default (public for struct, private for class) is public.
func accessIsPublic(t *syntax.Tree, decl int32, def string) bool {
	parent := t.Nodes[decl].Parent
	if parent < 0 {
		return def == "public"
	}
	public := def == "public"
	for c := t.Nodes[parent].FirstChild; c >= 0 && c != decl; c = t.Nodes[c].NextSibling {
		if t.Kind(c) == "access_specifier" {
			public = strings.HasPrefix(string(t.Text(c)), "public")
		}
	}
	return public
}
