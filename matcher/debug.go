package matcher

import (
	"context"
	"fmt"
	"strings"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// DebugFormat is one of the views of ast-grep's --debug-query: what a
// pattern compiled to, or a syntax tree as named nodes, every node, or an
// S-expression. The text of each view is laid out exactly as ast-grep
// 0.51.1 prints it (without its "Debug AST:" heading), so people can
// compare the two tools line by line.
type DebugFormat string

// The debug views.
const (
	DebugPattern DebugFormat = "pattern" // the compiled pattern: kinds, leaf texts, MetaVar lines
	DebugAST     DebugFormat = "ast"     // named nodes: "field: kind (row,col)-(row,col)", indented by depth
	DebugCST     DebugFormat = "cst"     // as ast, with the anonymous tokens too
	DebugSexp    DebugFormat = "sexp"    // tree-sitter's S-expression of the tree
)

// ParseDebugFormat reads a debugQuery value.
func ParseDebugFormat(name string) (DebugFormat, error) {
	switch f := DebugFormat(name); f {
	case DebugPattern, DebugAST, DebugCST, DebugSexp:
		return f, nil
	}
	return "", fmt.Errorf("unknown debugQuery %q: use pattern, ast, cst or sexp", name)
}

// MaxDebugBytes caps the text of one debug view: a large file's tree runs
// to many times the file's size. A longer view is cut at a line's end and
// says so on its last line.
const MaxDebugBytes = 4 << 20

// debugWriter collects a view's lines up to MaxDebugBytes.
type debugWriter struct {
	b   strings.Builder
	cut bool
}

func (w *debugWriter) line(depth int, text string) {
	if w.cut {
		return
	}
	if w.b.Len()+2*depth+len(text)+1 > MaxDebugBytes {
		w.cut = true
		fmt.Fprintf(&w.b, "… (cut at %d bytes: narrow the view to a smaller file or pattern)\n", MaxDebugBytes)
		return
	}
	w.b.WriteString(strings.Repeat("  ", depth))
	w.b.WriteString(text)
	w.b.WriteByte('\n')
}

// DumpTree renders node root of t and its subtree as ast-grep's
// --debug-query=ast (named nodes only; an anonymous node hides its subtree
// too) or =cst (every node). Each line is "field: kind (row,col)-(row,col)"
// with byte columns; a node error recovery inserted reads "MISSING kind".
func DumpTree(t *syntax.Tree, root int32, format DebugFormat) string {
	var w debugWriter
	namedOnly := format == DebugAST
	var walk func(i int32, depth int)
	walk = func(i int32, depth int) {
		n := &t.Nodes[i]
		if namedOnly && !n.IsNamed() {
			return
		}
		w.line(depth, describeNode(t, i))
		for c := n.FirstChild; c >= 0 && !w.cut; c = t.Nodes[c].NextSibling {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return w.b.String()
}

// describeNode is one line of DumpTree, without its indentation.
func describeNode(t *syntax.Tree, i int32) string {
	n := &t.Nodes[i]
	var b strings.Builder
	if n.Field != 0 {
		b.WriteString(t.Lang.FieldNameForId(n.Field))
		b.WriteString(": ")
	}
	if n.IsMissing() {
		b.WriteString("MISSING ")
	}
	start, end := t.StartPoint(i), t.EndPoint(i)
	fmt.Fprintf(&b, "%s (%d,%d)-(%d,%d)", t.Kind(i), start.Row, start.Column, end.Row, end.Column)
	return b.String()
}

// Sexp returns tree-sitter's S-expression of source parsed in l (what
// ast-grep's --debug-query=sexp prints), cut at MaxDebugBytes.
func Sexp(ctx context.Context, l *lang.Language, source []byte) (string, error) {
	grammar := l.Grammar()
	if grammar == nil {
		return "", fmt.Errorf("the %s grammar is not built into this binary", l.Name)
	}
	if err := syntax.CheckInput(grammar, source); err != nil {
		return "", err
	}
	parser := sitter.NewParser()
	defer parser.Close()
	if err := parser.SetLanguage(grammar); err != nil {
		return "", fmt.Errorf("loading the %s grammar: %w", l.Name, err)
	}
	// Not ParseCtx: its watcher goroutine may set the cancellation flag of a
	// parser already closed (a nil pointer: seen crashing the process).
	read := func(offset int, _ sitter.Point) []byte { return source[min(offset, len(source)):] }
	stop := &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool { return ctx.Err() != nil }}
	tree := parser.ParseWithOptions(read, nil, stop)
	if tree == nil {
		if ctx.Err() != nil {
			return "", syntax.ErrCancelled
		}
		return "", fmt.Errorf("tree-sitter returned no tree for this %s text", l.Name)
	}
	defer tree.Close()
	out := tree.RootNode().ToSexp()
	if len(out) > MaxDebugBytes {
		out = out[:MaxDebugBytes] + fmt.Sprintf("… (cut at %d bytes: narrow the view to a smaller file or pattern)", MaxDebugBytes)
	}
	return out, nil
}

// Dump renders what the pattern compiled to, as ast-grep's
// --debug-query=pattern: a node's kind, a named leaf's kind and text, an
// anonymous leaf's text, "MetaVar $NAME" for a metavariable; children
// indented below their node. The strictness decides what is shown, as it
// decides what is compared: anonymous leaves only where they must match
// (cst, smart, template), no kinds in template mode ("(node)" for inner
// nodes), no leaf text in signature mode.
func (p *Pattern) Dump() string {
	var w debugWriter
	var walk func(n *patternNode, depth int)
	walk = func(n *patternNode, depth int) {
		line, shown := p.describePatternNode(n)
		if !shown {
			return
		}
		w.line(depth, line)
		for _, c := range n.children {
			walk(c, depth+1)
		}
	}
	walk(p.root, 0)
	return w.b.String()
}

// describePatternNode is one line of Dump; shown is false for a node the
// strictness leaves out.
func (p *Pattern) describePatternNode(n *patternNode) (line string, shown bool) {
	kind := func() string {
		if n.isError {
			return "ERROR"
		}
		return p.Lang.Grammar().NodeKindForId(n.symbol)
	}
	switch s := p.Strictness; {
	case n.meta != nil:
		return "MetaVar " + n.meta.spelling(), true
	case !n.terminal && s == Template:
		return "(node)", true
	case !n.terminal:
		return kind(), true
	case !n.named:
		return n.text, s == Cst || s == Smart || s == Template
	case s == Template:
		return n.text, true
	case s == Signature || n.text == "":
		return kind(), true
	}
	return kind() + " " + n.text, true
}

// spelling writes a metavariable as ast-grep's dump does: always with "$",
// whatever expando the language parses it with; $$A (which may bind an
// anonymous token) shows as $A, as in ast-grep.
func (m *metaVar) spelling() string {
	switch m.kind {
	case metaDropped:
		return "$_"
	case metaMultiple:
		return "$$$"
	case metaMultiCapture:
		return "$$$" + m.name
	}
	return "$" + m.name
}
