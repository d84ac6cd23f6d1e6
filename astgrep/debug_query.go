package astgrep

import (
	"context"
	"errors"
	"strings"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// DebugResult is the reply of structls.astGrep when the query sets
// debugQuery: the view, as text laid out like ast-grep's --debug-query.
type DebugResult struct {
	DebugQuery matcher.DebugFormat `json:"debugQuery"`
	Language   string              `json:"language"`
	Path       string              `json:"path,omitempty"` // the file shown, when the view is a file's tree
	URI        string              `json:"uri,omitempty"`
	Text       string              `json:"text"`
	Warnings   []string            `json:"warnings"` // never null
}

// Debug answers a structls.astGrep query that sets debugQuery; nothing is
// searched. With a pattern (and lang): "pattern" shows what the pattern
// compiled to, after the retries a search would make; "ast", "cst" and
// "sexp" show the tree of the pattern text exactly as ast-grep parses it
// (its "$" left as written). Without a pattern, "ast", "cst" and "sexp"
// show the tree of the one file named in paths, as the editor has it (an
// unsaved buffer wins over the disk).
func Debug(ctx context.Context, env engine.Env, q Query) (*DebugResult, error) {
	format, err := matcher.ParseDebugFormat(q.DebugQuery)
	if err != nil {
		return nil, invalidf("%v", err)
	}
	if strings.TrimSpace(q.Pattern) == "" {
		if format == matcher.DebugPattern {
			return nil, invalidf("debugQuery \"pattern\" shows a compiled pattern: give a pattern and lang, or ask for ast, cst or sexp with one file in paths")
		}
		return debugFile(ctx, env.Snapshot, q, format)
	}
	if q.Lang == "" {
		return nil, invalidf("debugQuery with a pattern needs lang, the language to parse the pattern in (e.g. \"go\")")
	}
	l, err := lang.Lookup(q.Lang)
	if err != nil {
		return nil, invalidf("%v", err)
	}
	res := &DebugResult{DebugQuery: format, Language: l.Name, Warnings: []string{}}
	if format != matcher.DebugPattern {
		res.Text, err = dumpSource(ctx, l, []byte(q.Pattern), format)
		return res, err
	}
	strictness, err := matcher.ParseStrictness(q.Strictness)
	if err != nil {
		return nil, invalidf("%v", err)
	}
	set := matcher.NewPatternSet(q.Pattern, matcher.Options{Strictness: strictness, Selector: q.Selector})
	p, err := set.Get(ctx, l)
	if err != nil {
		return nil, invalidf("%v", err)
	}
	res.Text, res.Warnings = p.Dump(), set.Warnings()
	return res, nil
}

// debugFile shows the tree of the one file q.Paths names.
func debugFile(ctx context.Context, snap *workspace.Snapshot, q Query, format matcher.DebugFormat) (*DebugResult, error) {
	if len(q.Paths) != 1 {
		return nil, invalidf("debugQuery without a pattern shows one file's tree: name exactly one file in paths (got %d entries)", len(q.Paths))
	}
	f, source, err := readOneFile(ctx, snap, q.Paths[0])
	if err != nil {
		return nil, err
	}
	l, err := languageOf(f, q.Lang)
	if err != nil {
		return nil, err
	}
	res := &DebugResult{DebugQuery: format, Language: l.Name, Path: f.Rel, URI: f.URI(), Warnings: []string{}}
	res.Text, err = dumpSource(ctx, l, source, format)
	return res, err
}

// dumpSource parses source in l and renders its whole tree.
func dumpSource(ctx context.Context, l *lang.Language, source []byte, format matcher.DebugFormat) (string, error) {
	if l.Grammar() == nil {
		return "", invalidf("the %s grammar is not built into this binary", l.Name)
	}
	tree, err := syntax.Parse(ctx, l.Grammar(), source)
	if errors.Is(err, syntax.ErrCancelled) {
		return "", context.Canceled
	}
	if err != nil {
		return "", err
	}
	if format != matcher.DebugSexp {
		return matcher.DumpTree(tree, 0, format), nil
	}
	if depth := treeDepth(tree); len(tree.Nodes) > maxSexpNodes || depth > maxSexpDepth {
		return "", invalidf("the tree has %d nodes nested %d deep; the sexp view takes at most %d nodes and %d levels: ask for the ast or cst view, or a smaller file", len(tree.Nodes), depth, maxSexpNodes, maxSexpDepth)
	}
	text, err := matcher.Sexp(ctx, l, source)
	if errors.Is(err, syntax.ErrCancelled) {
		return "", context.Canceled
	}
	return text, err
}

// The sexp view is tree-sitter's own rendering (exactly ast-grep's), which
// recurses in C once per level and builds the whole text before it can be
// cut: these bounds keep it to a few megabytes and a shallow C stack.
const (
	maxSexpNodes = 200_000
	maxSexpDepth = 2_000
)

// treeDepth returns how deeply the nodes of a whole flat tree nest.
func treeDepth(t *syntax.Tree) int {
	depth := make([]int32, len(t.Nodes))
	deepest := int32(0)
	for i := range t.Nodes {
		if p := t.Nodes[i].Parent; p >= 0 {
			depth[i] = depth[p] + 1
			deepest = max(deepest, depth[i])
		}
	}
	return int(deepest)
}
