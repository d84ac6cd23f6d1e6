// Package matcher is the pattern core of structural search, with ast-grep's
// semantics: a pattern is code with metavariables ($A, $$$ARGS, $_), parsed
// by the language's grammar; it matches every node whose subtree has the
// same shape, under one of six strictness levels (docs/protocol.md,
// structls.astGrep). It compiles patterns (one source for each language met:
// PatternSet), matches them against a flat tree, binds metavariables, says
// where a pattern does not parse, and renders the debug views; it reads no
// file and walks no workspace. The engines built on it are package astgrep
// (the workspace search), rewrite and rules.
package matcher

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// Strictness says which differences between pattern and code still match.
type Strictness int

// The strictness levels, ast-grep's.
const (
	Smart     Strictness = iota // everything must match, except trivia (anonymous tokens, comments) in the code
	Cst                         // every node, trivia included
	Ast                         // named nodes only
	Relaxed                     // named nodes, comments ignored
	Signature                   // named nodes' kinds only, not their text
	Template                    // text only; node kinds are ignored
)

var strictnessNames = []string{"smart", "cst", "ast", "relaxed", "signature", "template"}

func (s Strictness) String() string { return strictnessNames[s] }

// ParseStrictness reads a strictness name; "" is smart.
func ParseStrictness(name string) (Strictness, error) {
	if name == "" {
		return Smart, nil
	}
	for i, n := range strictnessNames {
		if n == name {
			return Strictness(i), nil
		}
	}
	return 0, fmt.Errorf("unknown strictness %q: use one of %s", name, strings.Join(strictnessNames, ", "))
}

// patternNode is one node of a compiled pattern: a metavariable, a leaf
// (terminal) to compare by kind and text, or an internal node whose
// children are matched in order.
type patternNode struct {
	meta     *metaVar
	terminal bool
	text     string
	named    bool
	symbol   uint16
	isError  bool
	children []*patternNode
}

func (p *patternNode) isTrivial() bool { return p.meta == nil && p.terminal && !p.named }

// Pattern is a compiled pattern for one language.
type Pattern struct {
	Lang       *lang.Language
	Source     string
	Strictness Strictness
	root       *patternNode
	// rootSymbol is the only kind a match can have; -1 when any kind may match.
	rootSymbol int
	// literals are the texts of the pattern's named leaves, keywords its
	// keyword tokens: a file lacking any of them cannot match (checked before
	// parsing; keywords, and literals made of word characters, as whole
	// words: see mayMatch).
	literals, keywords []string
	// HasError reports that the pattern parsed into an ERROR node.
	HasError bool
	// syntaxProblem is the first ERROR or MISSING node in the part of the
	// pattern's parse tree that is matched; nil when it parsed cleanly.
	syntaxProblem *syntaxProblem
}

// Options of Compile.
type Options struct {
	Strictness Strictness
	// Selector names the kind of the node, inside the pattern parsed as a
	// whole (its context), that is the actual pattern.
	Selector string
}

// ErrEmptyPattern and the other Compile errors say what to change.
var (
	ErrEmptyPattern = errors.New("the pattern is empty")
	ErrNoContent    = errors.New("the pattern holds no code (only whitespace or comments?)")
)

// MaxPatternBytes bounds a pattern's text: code to match is a few lines,
// and a pattern of megabytes (an agent's mistake, or worse) cost seconds and
// gigabytes to parse before it could be refused.
const MaxPatternBytes = 1 << 20

// CheckPatternSize refuses a pattern over MaxPatternBytes, saying what to
// do: the engines check their queries' patterns with it before any work.
func CheckPatternSize(source string) error {
	if len(source) > MaxPatternBytes {
		return fmt.Errorf("the pattern is %d bytes, over the %d MiB a pattern may have: match a smaller piece of code", len(source), MaxPatternBytes>>20)
	}
	return nil
}

// Compile parses a pattern in a language (ast-grep's Pattern::try_new).
func Compile(ctx context.Context, l *lang.Language, source string, opts Options) (*Pattern, error) {
	if strings.TrimSpace(source) == "" {
		return nil, ErrEmptyPattern
	}
	if err := CheckPatternSize(source); err != nil {
		return nil, err
	}
	grammar := l.Grammar()
	if grammar == nil {
		return nil, fmt.Errorf("the %s grammar is not built into this binary", l.Name)
	}
	parsed := preprocess(source, l.Expando)
	tree, err := syntax.Parse(ctx, grammar, []byte(parsed))
	if err != nil {
		return nil, err
	}
	var root int32
	if opts.Selector != "" {
		root = -1
		for i := range tree.Nodes {
			if tree.Nodes[i].IsNamed() && tree.Kind(int32(i)) == opts.Selector {
				root = int32(i)
				break
			}
		}
		if root < 0 {
			return nil, fmt.Errorf("no %q node in the pattern: pick a selector that is the kind of a node the pattern contains", opts.Selector)
		}
	} else if root, err = effectiveNode(tree); err != nil {
		return nil, err
	}
	p := &Pattern{Lang: l, Source: source, Strictness: opts.Strictness, rootSymbol: -1}
	p.root = p.convert(tree, root, l.MetaChar())
	if err := p.checkRoot(); err != nil {
		return nil, err
	}
	p.HasError = p.root.isError
	p.syntaxProblem = findSyntaxProblem(tree, root, parsed, source, l.MetaChar())
	p.keywords = p.keywordTokens()
	switch {
	case opts.Selector != "":
		p.rootSymbol = int(tree.Nodes[root].Symbol)
	case opts.Strictness == Template || p.root.isError || p.root.meta != nil:
	default:
		p.rootSymbol = int(p.root.symbol)
	}
	return p, nil
}

// effectiveNode descends from the root while a node has a single child
// (a second child that is MISSING or has an empty kind does not count).
func effectiveNode(t *syntax.Tree) (int32, error) {
	if t.ChildCount(0) == 0 {
		return 0, ErrNoContent
	}
	if !isSingleNode(t, 0) {
		return 0, fmt.Errorf("the pattern holds several nodes (%s): make it one expression or statement, or use a selector", kindsOfChildren(t, 0))
	}
	n := int32(0)
	for isSingleNode(t, n) {
		n = t.Nodes[n].FirstChild
	}
	return n, nil
}

func isSingleNode(t *syntax.Tree, i int32) bool {
	switch t.ChildCount(i) {
	case 1:
		return true
	case 2:
		second := t.Nodes[t.Nodes[i].FirstChild].NextSibling
		return t.Nodes[second].IsMissing() || t.Kind(second) == ""
	}
	return false
}

func kindsOfChildren(t *syntax.Tree, i int32) string {
	var kinds []string
	for _, c := range t.Children(i) {
		kinds = append(kinds, t.Kind(c))
	}
	return strings.Join(kinds, ", ")
}

// convert turns the pattern's parse tree below node i into patternNodes.
func (p *Pattern) convert(t *syntax.Tree, i int32, metaChar rune) *patternNode {
	n := &t.Nodes[i]
	if mv := metaVarOf(t, i, metaChar); mv != nil {
		return &patternNode{meta: mv}
	}
	pn := &patternNode{symbol: n.Symbol, named: n.IsNamed(), isError: n.IsError()}
	if t.ChildCount(i) == 0 {
		text := string(t.Text(i))
		pn.terminal, pn.text = true, text
		if pn.named && text != "" {
			p.literals = append(p.literals, text)
		}
		return pn
	}
	for _, c := range t.Children(i) {
		if !t.Nodes[c].IsMissing() {
			pn.children = append(pn.children, p.convert(t, c, metaChar))
		}
	}
	return pn
}

// Literals returns the texts every match contains: the named leaves of the
// pattern, then its keywords.
func (p *Pattern) Literals() []string { return slices.Concat(p.literals, p.keywords) }

// ErrEllipsisRoot rejects a pattern that is a lone $$$ metavariable.
var ErrEllipsisRoot = errors.New("a pattern cannot be only a multi metavariable like $$$A: put it inside code, e.g. f($$$A)")

func (p *Pattern) checkRoot() error {
	if p.root.meta != nil && p.root.meta.isEllipsis() {
		return ErrEllipsisRoot
	}
	return nil
}

// rootKind names the kind of the pattern's root node ("" for a metavariable).
func (p *Pattern) rootKind() string {
	if p.root.meta != nil {
		return ""
	}
	if p.root.isError {
		return "ERROR"
	}
	return p.Lang.Grammar().NodeKindForId(p.root.symbol)
}

// compileInContext compiles the pattern placed into a context document: the
// root is the outermost node spanning exactly the pattern text (descending
// through single children), or, with want, the first node of that kind there.
func compileInContext(ctx context.Context, l *lang.Language, source, context, want string, opts Options) (*Pattern, error) {
	prefix, _, _ := strings.Cut(context, "%s")
	doc := fmt.Sprintf(context, preprocess(source, l.Expando))
	tree, err := syntax.Parse(ctx, l.Grammar(), []byte(doc))
	if err != nil {
		return nil, err
	}
	start, end := uint32(len(prefix)), uint32(len(prefix)+len(preprocess(source, l.Expando)))
	root := int32(-1)
	for i := range tree.Nodes {
		n := &tree.Nodes[i]
		if n.Start == start && (n.End == end || want != "") && n.IsNamed() && (want == "" || tree.Kind(int32(i)) == want) {
			root = int32(i)
			break
		}
	}
	if root < 0 {
		return nil, fmt.Errorf("no node spans the pattern in its context")
	}
	for want == "" && isSingleNode(tree, root) {
		root = tree.Nodes[root].FirstChild
	}
	p := &Pattern{Lang: l, Source: source, Strictness: opts.Strictness, rootSymbol: -1}
	p.root = p.convert(tree, root, l.MetaChar())
	if err := p.checkRoot(); err != nil {
		return nil, err
	}
	p.HasError = p.root.isError || tree.HasError()
	p.keywords = p.keywordTokens()
	if p.root.meta == nil && !p.root.isError {
		p.rootSymbol = int(p.root.symbol)
	}
	return p, nil
}

// caseInsensitive lists grammars whose keywords match in any case, so a
// keyword's spelling in the pattern need not occur in the code.
var caseInsensitive = map[string]bool{"sql": true, "powershell": true, "verilog": true}

// keywordTokens returns the anonymous keyword tokens (letters only, spelled
// as their kind) that every match must contain: in smart, cst and template
// mode an anonymous leaf of the pattern is never skipped, except right after
// an ellipsis ($$$), where anonymous leaves are passed over.
func (p *Pattern) keywordTokens() []string {
	if (p.Strictness != Smart && p.Strictness != Cst && p.Strictness != Template) || caseInsensitive[p.Lang.Name] {
		return nil
	}
	grammar := p.Lang.Grammar()
	var out []string
	var walk func(children []*patternNode)
	walk = func(children []*patternNode) {
		afterEllipsis := false
		for _, c := range children {
			switch {
			case c.meta != nil:
				afterEllipsis = c.meta.isEllipsis()
				continue
			case c.terminal && !c.named && !afterEllipsis && isKeyword(c.text) && grammar.NodeKindForId(c.symbol) == c.text:
				out = append(out, c.text)
			}
			if !c.isTrivial() {
				afterEllipsis = false
			}
			walk(c.children)
		}
	}
	walk([]*patternNode{p.root})
	return out
}

func isKeyword(s string) bool {
	if len(s) < 2 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_') {
			return false
		}
	}
	return true
}
