package rules

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// BenchmarkCheckCorpus measures Check alone over the Go files of a few
// packages of the Go standard library, parsed beforehand: the matching
// part of `structls scan` (bench/scan.sh) without parsing or walking.
func BenchmarkCheckCorpus(b *testing.B) {
	project, err := LoadProject("testdata/ruleset/sgconfig.yml")
	if err != nil {
		b.Fatal(err)
	}
	l, _ := lang.Lookup("go")
	var trees []*syntax.Tree
	for _, dir := range []string{"net", "go", "runtime"} {
		root := filepath.Join(runtime.GOROOT(), "src", dir)
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			tree, err := syntax.Parse(context.Background(), l.Grammar(), src)
			if err == nil {
				trees = append(trees, tree)
			}
			return nil
		})
	}
	if len(trees) == 0 {
		b.Skip("the Go standard library is not installed")
	}
	b.ResetTimer()
	for b.Loop() {
		for _, tree := range trees {
			if _, err := project.Rules.Check(context.Background(), "x.go", l, tree); err != nil {
				b.Fatal(err)
			}
		}
	}
}
