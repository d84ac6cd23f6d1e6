package syntax_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
	goroot := filepath.Join(runtime.GOROOT(), "src")
	sources := []struct {
		lang string
		dirs []string
		ext  string
	}{
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
	files, kinds, maybes := 0, 0, 0
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
			}
		}
	}
	t.Logf("%d files: %d kinds present, found by both walks; %d answered maybe (hidden kinds)", files, kinds, maybes)
}

func moduleDir(t *testing.T, module string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("go list -m %s: %v (is the module in go.mod and downloaded?)", module, err)
	}
	return strings.TrimSpace(string(out))
}
