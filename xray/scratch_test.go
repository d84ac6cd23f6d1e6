package xray

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/workers"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// TestParsedInWorkerScratch: without a cache that keeps trees (the CLI),
// each worker parses file after file into one scratch, reused; the results
// are those of a run whose trees are cached and kept, with one worker (every
// file reuses the scratch of the one before, small after large) or several.
func TestParsedInWorkerScratch(t *testing.T) {
	dir := t.TempDir()
	for i, calls := range []int{3, 20000, 1, 500, 0, 7} { // file 1 grows the arena, the next ones reuse it
		var src strings.Builder
		fmt.Fprintf(&src, "package p\n\nfunc f%d() {\n", i)
		for j := range calls {
			fmt.Fprintf(&src, "\tg%d(%d, \"s%d\")\n", j%7, j, j)
		}
		src.WriteString("}\n")
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := Query{Driver: `\.go$`, Target: "filename", Evaluator: `return {"matches": [` +
		`{"line_number": c.start_point[0] + 1, "text": c.text, "node": c.child_by_field_name("function")}` +
		` for c in node.descendants_of_type("call_expression")], "value": len(source)}`}
	search := func(cache *syntax.Cache) *Result {
		t.Helper()
		res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16, Trees: parsecache.Trees{Cache: cache}}, q)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	want := search(syntax.NewCache(1 << 30))
	if len(want.Matches) != 20511 || len(want.EvaluationErrors) != 0 {
		t.Fatalf("the cached run found %d matches, %d errors; want 20511, 0", len(want.Matches), len(want.EvaluationErrors))
	}
	for _, n := range []int{1, 3} {
		before := workers.SetCount(n)
		got := search(nil)
		workers.SetCount(before)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers parsing into their scratches: %d matches, %d metadata; want the cached run's %d, %d",
				n, len(got.Matches), len(got.FileMetadata), len(want.Matches), len(want.FileMetadata))
		}
	}
}
