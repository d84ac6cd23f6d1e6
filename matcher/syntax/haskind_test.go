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

	"github.com/structls/structls/matcher/lang"
	_ "github.com/structls/structls/matcher/lang/grammars"
	"github.com/structls/structls/matcher/syntax"
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
		{"java", []string{"../../testdata/corpus/java"}, ".java"},
		{"tsx", []string{"../../testdata/corpus/tsx"}, ".tsx"},
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
