package xray

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/structls/structls/internal/testutil"
	_ "github.com/structls/structls/matcher/lang/grammars"
	"github.com/structls/structls/workspace"
)

var update = flag.Bool("update", false, "rewrite the @want sections of the golden fixtures")

// TestFixtures runs every testdata/*.txtar fixture: its files form a
// workspace, "@query" is the structls.xray argument, "@evaluator" (when
// present) its evaluator code, and "@want" the text rendering of the result
// (or "error: …" when the query is refused).
func TestFixtures(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.txtar")
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var query, evaluator, want []byte
			var files []txtar.File
			for _, f := range ar.Files {
				switch f.Name {
				case "@query":
					query = f.Data
				case "@evaluator":
					evaluator = f.Data
				case "@want":
					want = f.Data
				default:
					files = append(files, f)
				}
			}
			dir := testutil.WriteTree(t, string(txtar.Format(&txtar.Archive{Files: files})))
			got := runFixture(t, dir, query, evaluator)
			if *update {
				for i, f := range ar.Files {
					if f.Name == "@want" {
						ar.Files[i].Data = got
					}
				}
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
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
	res, err := Search(context.Background(), snapshotOf(t, dir), q, workspace.UTF16, nil, nil)
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
