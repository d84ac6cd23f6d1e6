package syntax_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/structls/structls/lang"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/syntax"
)

// TestHasKind checks the direct kind check against a cursor walk of the same
// trees: real code in languages whose grammars alias heavily, and the
// grammars' own test corpora parsed whole (headers and expected trees
// included, so the trees are full of ERROR nodes). The direct check never
// says "no" for a kind a node has; it may say "maybe" only for hidden kinds
// (which no node shows and no pattern starts with).
func TestHasKind(t *testing.T) {
	files, kinds, maybes := 0, 0, 0
	eachSource(t, hasKindSources(t), func(path string, l *lang.Language, code []byte) {
		direct, walked, err := syntax.KindsPresent(l.Grammar(), code)
		if err != nil {
			t.Fatal(err)
		}
		files++
		for k := range walked {
			switch {
			case walked[k] && !direct[k]:
				t.Errorf("%s: a %s node is in the tree; the direct check says there is none", path, l.Grammar().NodeKindForId(uint16(k)))
			case walked[k]:
				kinds++
			case direct[k] && l.Grammar().NodeKindIsVisible(uint16(k)):
				t.Errorf("%s: no %s node is in the tree; the direct check says maybe (it should know)", path, l.Grammar().NodeKindForId(uint16(k)))
			case direct[k]:
				maybes++
			}
		}
	})
	t.Logf("%d files: %d kinds present, found by both walks; %d answered maybe (hidden kinds)", files, kinds, maybes)
}

// TestSubtreesOfEveryKind: on the same trees, the forest ParseSubtrees
// writes — its roots found by reading the tree directly, their positions
// and fields as the direct walk computes them — is exactly the outermost
// subtrees of that kind in the whole tree, for every kind present (a
// sample of them in the larger files).
func TestSubtreesOfEveryKind(t *testing.T) {
	ctx := context.Background()
	var scratch syntax.Scratch
	defer scratch.Release()
	forests := 0
	eachSource(t, hasKindSources(t), func(path string, l *lang.Language, code []byte) {
		whole, err := syntax.Parse(ctx, l.Grammar(), code)
		if err != nil {
			t.Fatal(err)
		}
		var present []uint16
		for i := range whole.Nodes {
			if !slices.Contains(present, whole.Nodes[i].Symbol) {
				present = append(present, whole.Nodes[i].Symbol)
			}
		}
		step := max(1, len(present)/8)
		for i := 0; i < len(present); i += step {
			symbol := present[i]
			forest, err := syntax.ParseSubtrees(ctx, l.Grammar(), code, symbol, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			forests++
			if want := syntax.ForestOf(whole, symbol); !slices.Equal(forest.Nodes, want) {
				t.Errorf("%s, %s: the forest differs from the whole tree's subtrees of that kind (%d nodes, want %d)",
					path, l.Grammar().NodeKindForId(symbol), len(forest.Nodes), len(want))
			}
		}
	})
	t.Logf("%d forests compared", forests)
}

// TestDirectWriteMatchesCursor: on the same trees, the nodes written by
// reading tree-sitter's subtrees directly (direct.c) are exactly those the
// cursor walk writes — every field of every node — for the whole tree, for
// the tree with some kinds' children left out (as the outline leaves out
// function bodies), and for forests of a sample of kinds.
func TestDirectWriteMatchesCursor(t *testing.T) {
	ctx := context.Background()
	var scratch syntax.Scratch
	defer scratch.Release()
	defer syntax.SetCursorWalk(false)
	both := func(parse func() (*syntax.Tree, error)) (direct, cursor *syntax.Tree) {
		t.Helper()
		var errs [2]error
		syntax.SetCursorWalk(false)
		direct, errs[0] = parse()
		syntax.SetCursorWalk(true)
		cursor, errs[1] = parse()
		syntax.SetCursorWalk(false)
		if errs[0] != nil || errs[1] != nil {
			t.Fatal(errs)
		}
		return direct, cursor
	}
	trees, nodes := 0, 0
	eachSource(t, hasKindSources(t), func(path string, l *lang.Language, code []byte) {
		g := l.Grammar()
		whole, want := both(func() (*syntax.Tree, error) { return syntax.Parse(ctx, g, code) })
		trees++
		nodes += len(want.Nodes)
		if i := firstDifference(whole.Nodes, want.Nodes); i >= 0 {
			t.Errorf("%s: whole tree: node %d of %d differs: direct %+v, cursor %+v", path, i, len(want.Nodes), at(whole.Nodes, i), at(want.Nodes, i))
		}
		var present []uint16 // the kinds with children in the tree
		for i := range want.Nodes {
			if symbol := want.Nodes[i].Symbol; want.ChildCount(int32(i)) > 0 && !slices.Contains(present, symbol) {
				present = append(present, symbol)
			}
		}
		var opaque []string // every third of them
		for i := 0; i < len(present); i += 3 {
			opaque = append(opaque, g.NodeKindForId(present[i]))
		}
		pruned, wantPruned := both(func() (*syntax.Tree, error) {
			return syntax.ParsePruned(ctx, g, code, syntax.NewKindSet(g, opaque...), nil, &scratch)
		})
		trees++
		if i := firstDifference(pruned.Nodes, wantPruned.Nodes); i >= 0 {
			t.Errorf("%s: without the children of %v: node %d of %d differs: direct %+v, cursor %+v", path, opaque, i, len(wantPruned.Nodes), at(pruned.Nodes, i), at(wantPruned.Nodes, i))
		}
		step := max(1, len(present)/4)
		for i := 0; i < len(present); i += step {
			symbol := present[i]
			forest, wantForest := both(func() (*syntax.Tree, error) { return syntax.ParseSubtrees(ctx, g, code, symbol, &scratch) })
			trees++
			if j := firstDifference(forest.Nodes, wantForest.Nodes); j >= 0 {
				t.Errorf("%s: forest of %s: node %d of %d differs: direct %+v, cursor %+v", path, g.NodeKindForId(symbol), j, len(wantForest.Nodes), at(forest.Nodes, j), at(wantForest.Nodes, j))
			}
		}
	})
	t.Logf("%d trees compared (%d nodes in the whole trees)", trees, nodes)
}

// TestForestOfADeepTree: a tree deeper than the direct search follows
// (MAX_DEPTH in mirror.h) is searched again with a cursor, and the
// subtrees the direct search had already written before it gave up are
// not written twice.
func TestForestOfADeepTree(t *testing.T) {
	ctx := context.Background()
	l, err := lang.Lookup("go")
	if err != nil {
		t.Fatal(err)
	}
	g := l.Grammar()
	const depth = 5000
	code := []byte("package p\n\nvar a = f(1)\n\nvar b = " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "\n\nvar c = g(2)\n")
	whole, err := syntax.Parse(ctx, g, code)
	if err != nil {
		t.Fatal(err)
	}
	var scratch syntax.Scratch
	defer scratch.Release()
	call := g.IdForNodeKind("call_expression", true)
	forest, err := syntax.ParseSubtrees(ctx, g, code, call, &scratch)
	if err != nil {
		t.Fatal(err)
	}
	want := syntax.ForestOf(whole, call)
	if roots := countRoots(forest.Nodes); !slices.Equal(forest.Nodes, want) {
		t.Errorf("the forest of call_expression has %d nodes in %d subtrees; want %d nodes in %d (f(1) and g(2))", len(forest.Nodes), roots, len(want), countRoots(want))
	}
}

// countRoots counts the nodes without a parent.
func countRoots(nodes []syntax.Node) int {
	n := 0
	for _, node := range nodes {
		if node.Parent < 0 {
			n++
		}
	}
	return n
}

// firstDifference is the index of the first node where a and b differ
// (len of the shorter when one is a prefix of the other), or -1.
func firstDifference(a, b []syntax.Node) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// at is nodes[i], or the zero node past the end.
func at(nodes []syntax.Node, i int) syntax.Node {
	if i < len(nodes) {
		return nodes[i]
	}
	return syntax.Node{}
}

// source is a set of files of one language, for TestHasKind.
type source struct {
	lang string
	dirs []string
	ext  string
}

// hasKindSources are real code in languages whose grammars alias heavily,
// and the grammars' own test corpora.
func hasKindSources(t *testing.T) []source {
	goroot := filepath.Join(runtime.GOROOT(), "src")
	return []source{
		{"go", []string{filepath.Join(goroot, "go/parser"), filepath.Join(goroot, "go/types"), filepath.Join(goroot, "net/http")}, ".go"},
		{"java", []string{"../testdata/corpus/java"}, ".java"},
		{"tsx", []string{"../testdata/corpus/tsx"}, ".tsx"},
		{"go", []string{moduleDir(t, "github.com/tree-sitter/tree-sitter-go") + "/test/corpus"}, ".txt"},
		{"python", []string{moduleDir(t, "github.com/tree-sitter/tree-sitter-python") + "/test/corpus"}, ".txt"},
		{"javascript", []string{moduleDir(t, "github.com/tree-sitter/tree-sitter-javascript") + "/test/corpus"}, ".txt"},
		{"typescript", []string{moduleDir(t, "github.com/tree-sitter/tree-sitter-typescript") + "/test/corpus"}, ".txt"},
		{"rust", []string{moduleDir(t, "github.com/tree-sitter/tree-sitter-rust") + "/test/corpus"}, ".txt"},
		{"c", []string{moduleDir(t, "github.com/tree-sitter/tree-sitter-c") + "/test/corpus"}, ".txt"},
		{"cpp", []string{moduleDir(t, "github.com/tree-sitter/tree-sitter-cpp") + "/test/corpus"}, ".txt"},
		{"ruby", []string{moduleDir(t, "github.com/tree-sitter/tree-sitter-ruby") + "/test/corpus"}, ".txt"},
		{"php", []string{moduleDir(t, "github.com/tree-sitter/tree-sitter-php") + "/test/corpus"}, ".txt"},
	}
}

// eachSource calls visit with every file of the sources.
func eachSource(t *testing.T, sources []source, visit func(path string, l *lang.Language, code []byte)) {
	t.Helper()
	for _, src := range sources {
		l, err := lang.Lookup(src.lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range src.dirs {
			paths, _ := filepath.Glob(filepath.Join(dir, "*"+src.ext))
			if len(paths) == 0 {
				t.Fatalf("no %s files in %s", src.ext, dir)
			}
			for _, path := range paths {
				code, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				visit(path, l, code)
			}
		}
	}
}

func moduleDir(t *testing.T, module string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("go list -m %s: %v (is the module in go.mod and downloaded?)", module, err)
	}
	return strings.TrimSpace(string(out))
}
