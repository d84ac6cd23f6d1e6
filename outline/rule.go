package outline

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"

	"github.com/structls/structls/syntax"
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
	// NameIsNot, when set, is a name the rule never applies to (Go's blank
	// identifier _, which declares nothing).
	NameIsNot string
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

	c *compiled // the rule's paths, expressions and tests, parsed once (compileRules)
}

// compiled is a Rule made ready to run: every worker runs every rule on
// every declaration, so nothing is parsed or looked up by its source text
// then.
type compiled struct {
	match, name, endAt, receiver, header path
	nameIs                               *regexp.Regexp // nil for none
	cond, exported                       test
}

// compileRules compiles rules and their members, once, when their table
// is registered; a malformed path or expression is a programming error in
// the table (it panics, and the tests that run every table catch it).
func compileRules(rules []Rule) {
	for i := range rules {
		r := &rules[i]
		c := &compiled{match: parsePath(r.Match), cond: parseTest(r.If), exported: parseTest(r.Exported)}
		for _, p := range []struct {
			src string
			to  *path
		}{{r.Name, &c.name}, {r.EndAt, &c.endAt}, {r.Receiver, &c.receiver}, {r.Header, &c.header}} {
			if p.src != "" {
				*p.to = parsePath(p.src)
			}
		}
		if r.NameIs != "" {
			c.nameIs = regexp.MustCompile(r.NameIs)
		}
		r.c = c
		compileRules(r.Members)
	}
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

// parsePath parses a path; malformed paths are programming errors in a
// language table, caught by the tests that run every table.
func parsePath(s string) path {
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
	return p
}

// fieldNames caches each grammar's field names, indexed by field id.
var fieldNames sync.Map // *sitter.Language → []string

// fieldNamesOf returns lang's field names, indexed by field id ("" for 0).
func fieldNamesOf(lang *sitter.Language) []string {
	if names, ok := fieldNames.Load(lang); ok {
		return names.([]string)
	}
	count := lang.FieldCount()
	names := make([]string, count+1)
	for i := 1; i <= int(count); i++ {
		names[i] = lang.FieldNameForId(uint16(i))
	}
	fieldNames.Store(lang, names)
	return names
}

// view is a tree as the rules read it: its nodes, and the names of its
// grammar's fields, looked up once per file.
type view struct {
	t      *syntax.Tree
	fields []string
}

func newView(t *syntax.Tree) view { return view{t: t, fields: fieldNamesOf(t.Lang)} }

func (v view) fieldName(id uint16) string {
	if int(id) < len(v.fields) {
		return v.fields[id]
	}
	return ""
}

// matches reports whether child c of the tree fits the step.
func (s step) matches(v view, c int32) bool {
	n := &v.t.Nodes[c]
	if s.named && !n.IsNamed() {
		return false
	}
	if n.IsExtra() && len(s.kinds) == 0 {
		return false // comments are never "any child"
	}
	if s.field != "" && v.fieldName(n.Field) != s.field {
		return false
	}
	if s.kinds == nil {
		return true
	}
	kind := v.t.Kind(c)
	for _, k := range s.kinds {
		if k == kind {
			return true
		}
	}
	return false
}

// find appends to out every node the path reaches from node from, in
// source order.
func (p path) find(v view, from int32, out []int32) []int32 {
	if len(p) == 0 {
		return append(out, from)
	}
	if p[0].parent {
		if up := v.t.Nodes[from].Parent; up >= 0 {
			return p[1:].find(v, up, out)
		}
		return out
	}
	if p[0].through != nil {
		out = p[1:].find(v, from, out)
		for c := v.t.Nodes[from].FirstChild; c >= 0; c = v.t.Nodes[c].NextSibling {
			if slices.Contains(p[0].through, v.t.Kind(c)) {
				out = p.find(v, c, out)
			}
		}
		return out
	}
	if p[0].deep {
		out = p[1:].find(v, from, out)
		for c := v.t.Nodes[from].FirstChild; c >= 0; c = v.t.Nodes[c].NextSibling {
			if v.t.Nodes[c].IsNamed() {
				out = p.find(v, c, out)
			}
		}
		return out
	}
	seen := 0
	for c := v.t.Nodes[from].FirstChild; c >= 0; c = v.t.Nodes[c].NextSibling {
		if p[0].matches(v, c) {
			if seen++; p[0].nth == 0 || p[0].nth == seen {
				out = p[1:].find(v, c, out)
			}
		}
	}
	return out
}

// first returns the first node the path reaches from node from, or -1.
func (p path) first(v view, from int32) int32 {
	if len(p) == 0 {
		return from
	}
	if p[0].parent {
		if up := v.t.Nodes[from].Parent; up >= 0 {
			return p[1:].first(v, up)
		}
		return -1
	}
	if p[0].through != nil {
		if n := p[1:].first(v, from); n >= 0 {
			return n
		}
		for c := v.t.Nodes[from].FirstChild; c >= 0; c = v.t.Nodes[c].NextSibling {
			if slices.Contains(p[0].through, v.t.Kind(c)) {
				if n := p.first(v, c); n >= 0 {
					return n
				}
			}
		}
		return -1
	}
	if p[0].deep {
		if n := p[1:].first(v, from); n >= 0 {
			return n
		}
		for c := v.t.Nodes[from].FirstChild; c >= 0; c = v.t.Nodes[c].NextSibling {
			if v.t.Nodes[c].IsNamed() {
				if n := p.first(v, c); n >= 0 {
					return n
				}
			}
		}
		return -1
	}
	seen := 0
	for c := v.t.Nodes[from].FirstChild; c >= 0; c = v.t.Nodes[c].NextSibling {
		if p[0].matches(v, c) {
			if seen++; p[0].nth != 0 && p[0].nth != seen {
				continue
			}
			if n := p[1:].first(v, c); n >= 0 {
				return n
			}
		}
	}
	return -1
}

// test is a parsed Exported or If test: parts that must all hold.
type test []testPart

// testPart is one test of a Rule's Exported or If, parsed: the operation,
// its argument, and the path and expression the argument holds, if any.
type testPart struct {
	op, arg string
	path    path           // has:, lacks:, listed:, and text:'s node
	re      *regexp.Regexp // text:'s expression
}

// parseTest parses a test ("" always holds); an unknown operation is a
// programming error in a language table.
func parseTest(src string) test {
	if src == "" {
		return nil
	}
	var out test
	for _, part := range strings.Split(src, "&") {
		op, arg, _ := strings.Cut(part, ":")
		tp := testPart{op: op, arg: arg}
		switch op {
		case "", "always", "never", "upper", "python", "public-name", "access":
		case "listed", "has", "lacks":
			tp.path = parsePath(arg)
		case "text":
			at, pattern, _ := strings.Cut(arg, "~")
			tp.path, tp.re = parsePath(at), regexp.MustCompile(pattern)
		default:
			panic(fmt.Sprintf("outline: unknown export test %q", part))
		}
		out = append(out, tp)
	}
	return out
}

// readsModule reports whether the test needs the module's facts loaded
// first (Python's __all__).
func (ts test) readsModule() bool {
	return slices.ContainsFunc(ts, func(tp testPart) bool { return tp.op == "python" })
}

// holds evaluates the test on the declaration node decl whose name is
// name. module holds what a file-wide test needs.
func (ts test) holds(v view, decl int32, name string, module *moduleFacts) bool {
	for i := range ts {
		if !ts[i].holds(v, decl, name, module) {
			return false
		}
	}
	return true
}

func (tp *testPart) holds(v view, decl int32, name string, module *moduleFacts) bool {
	switch tp.op {
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
		return accessIsPublic(v.t, decl, tp.arg)
	case "listed":
		listed := module.listed(v, tp.arg, tp.path)
		return listed == nil || listed[name]
	case "text":
		n := tp.path.first(v, decl)
		return n >= 0 && tp.re.Match(v.t.Text(n))
	case "has":
		return tp.path.first(v, decl) >= 0
	case "lacks":
		return tp.path.first(v, decl) < 0
	}
	panic(fmt.Sprintf("outline: unknown export test %q", tp.op))
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
