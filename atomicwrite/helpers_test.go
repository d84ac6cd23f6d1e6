package atomicwrite

import (
	"context"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// The tests write plans that package rewrite previews.

// ops builds a list of ops from pattern, rewrite pairs.
func ops(pairs ...string) []rewrite.Op {
	var out []rewrite.Op
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, rewrite.Op{Pattern: pairs[i], Rewrite: new(pairs[i+1])})
	}
	return out
}

// preview runs rewrite.Preview on a workspace made from a txtar archive.
func preview(t *testing.T, archive string, q rewrite.Query) (*rewrite.Plan, string) {
	t.Helper()
	dir := testutil.WriteTree(t, archive)
	plan, err := rewrite.Preview(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir, nil), Encoding: workspace.UTF16}, q)
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	return plan, dir
}

// snapshotOf is a snapshot of the single workspace folder dir, with the
// open documents docs.
func snapshotOf(t *testing.T, dir string, docs map[string]*workspace.Document) *workspace.Snapshot {
	t.Helper()
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, docs)
}
