package xray

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// BenchmarkCallsInStdlib is the benchmark in-process: an evaluator
// listing every call_expression of each .go file under the Go standard
// library (filename driver). bench/xray.sh compares the CLI with ast-grep.
func BenchmarkCallsInStdlib(b *testing.B) {
	for _, bc := range []struct{ name, code string }{
		{"calls", `return {"matches": [{"line_number": c.start_point[0] + 1} for c in node.descendants_of_type("call_expression")], "value": None}`},
		{"parse-only", `return {"matches": []}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			folder, err := workspace.NewFolder(filepath.Join(runtime.GOROOT(), "src"), "")
			if err != nil {
				b.Fatal(err)
			}
			snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
			for b.Loop() {
				res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Driver: `\.go$`, Target: "filename", Evaluator: bc.code})
				if err != nil || len(res.EvaluationErrors) > 0 {
					b.Fatal(err, res.EvaluationErrors)
				}
				b.ReportMetric(float64(len(res.Matches)), "matches")
			}
		})
	}
}

// BenchmarkEvaluateParsed is X-Ray's own work after parsing: the calls
// evaluator over the trees of GOROOT/src/net (parsed once, before the
// timer, and kept in a cache), its matches encoded in batches as the LSP
// sends them. Compare its runs A/B to see what a change to the evaluation,
// the results or their JSON costs, without the noise of parsing.
func BenchmarkEvaluateParsed(b *testing.B) {
	folder, err := workspace.NewFolder(filepath.Join(runtime.GOROOT(), "src", "net"), "")
	if err != nil {
		b.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	cache := syntax.NewCache(2 << 30)
	q := Query{Driver: `\.go$`, Target: "filename",
		Evaluator: `return {"matches": [{"line_number": c.start_point[0] + 1} for c in node.descendants_of_type("call_expression")], "value": None}`}
	var encoded []byte
	emit := func(bt Batch) error { encoded = bt.AppendJSON(encoded[:0]); return nil }
	run := func() {
		if _, err := SearchStream(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16, Trees: parsecache.Trees{Cache: cache}}, q, emit); err != nil {
			b.Fatal(err)
		}
	}
	run() // parses every file into the cache
	for b.Loop() {
		run()
	}
}
