package rules

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// BenchmarkCheckLargeGoFile measures Check alone (the tree already parsed,
// as the live diagnostics have it) for the Go rules of testdata/ruleset on
// a 10,000-line file: runtime/proc.go and net/http/server.go of the Go
// standard library, concatenated.
func BenchmarkCheckLargeGoFile(b *testing.B) {
	project, err := LoadProject("testdata/ruleset/sgconfig.yml")
	if err != nil {
		b.Fatal(err)
	}
	var src []byte
	for _, f := range []string{"runtime/proc.go", "net/http/server.go"} {
		text, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", f))
		if err != nil {
			b.Skip(err)
		}
		src = append(src, text...)
	}
	b.Logf("%d lines", bytes.Count(src, []byte("\n")))
	l, _ := lang.Lookup("go")
	tree, err := syntax.Parse(context.Background(), l.Grammar(), src)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := project.Rules.Check(context.Background(), "big.go", l, tree); err != nil {
			b.Fatal(err)
		}
	}
}
