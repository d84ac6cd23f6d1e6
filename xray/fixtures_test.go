package xray

import (
	"context"
	"encoding/json"
	"flag"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/workspace"
)

var update = flag.Bool("update", false, "rewrite the @want sections of the golden fixtures")

// TestFixtures runs every testdata/*.txtar fixture: its files form a
// workspace, "@query" is the structls.xray argument, "@evaluator" (when
// present) its evaluator code, and "@want" the text rendering of the result
// (or "error: …" when the query is refused).
func TestFixtures(t *testing.T) {
	testutil.RunGolden(t, "testdata/*.txtar", *update, func(t *testing.T, dir string, sections map[string][]byte) []byte {
		return runFixture(t, dir, sections["@query"], sections["@evaluator"])
	})
}

func runFixture(t *testing.T, dir string, query, evaluator []byte) []byte {
	t.Helper()
	var q Query
	if err := json.Unmarshal(query, &q); err != nil {
		t.Fatalf("@query: %v", err)
	}
	if evaluator != nil {
		q.Evaluator = string(evaluator)
	}
	q.Format = "text"
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q)
	if err != nil {
		return []byte("error: " + err.Error() + "\n")
	}
	return []byte(res.Text)
}

func snapshotOf(t testing.TB, dir string) *workspace.Snapshot {
	t.Helper()
	f, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return workspace.NewSnapshot([]workspace.Folder{f}, workspace.Settings{}, nil)
}
