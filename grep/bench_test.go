package grep

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/workspace"
)

// BenchmarkSearchGoroot searches the Go standard library (a real corpus on
// every machine) for patterns of different shapes. It is a measurement, not
// a test: bench/search.sh compares the CLI with ripgrep.
func BenchmarkSearchGoroot(b *testing.B) {
	folder, err := workspace.NewFolder(filepath.Join(runtime.GOROOT(), "src"), "")
	if err != nil {
		b.Skip(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	zero := 0
	for _, pattern := range []string{`TODO\(\w+\)`, `(?i)deadline exceeded`, `[A-Z][a-z]+Handler\b`, `\berr(or)?\b`} {
		b.Run(pattern, func(b *testing.B) {
			for b.Loop() {
				_, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Pattern: pattern, Scope: workspace.Scope{Globs: []string{"*.go"}},
					Limit: &zero, PerFileLimit: &zero, ContextBefore: &zero, ContextAfter: &zero})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
