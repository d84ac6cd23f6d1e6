package xray

import (
	"context"
	"runtime/debug"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// TestSearchReleasesWorkerArenas: without a parse cache each worker parses
// into its own arena, kept from file to file; when the run ends the arenas
// are given back, not held until a collection finds them dropped.
func TestSearchReleasesWorkerArenas(t *testing.T) {
	dir := testutil.LargeGoDir(t, 5000)
	// No collection may run the dropped scratches' cleanups meanwhile: only
	// the release at the end of the run gives the arenas back.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := syntax.ArenaBytes()
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: `\.go$`, Target: "filename",
		Evaluator: `return {"matches": [{"line_number": c.start_point[0] + 1} for c in node.descendants_of_type("call_expression")]}`})
	if err != nil || len(res.EvaluationErrors) > 0 {
		t.Fatal(err, res.EvaluationErrors)
	}
	if len(res.Matches) != 10000 {
		t.Fatalf("%d matches; want 10000", len(res.Matches))
	}
	if after := syntax.ArenaBytes(); after-before >= 8<<20 { // a kept arena holds 16 MiB here
		t.Errorf("the process's arenas hold %d bytes after the run, %d before", after, before)
	}
}
