package xray

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestBatch runs two scans over two folders: matches are tagged with their
// cell, a named evaluator comes from each folder's .structls/xray/, and a
// folder without it gives a cell error while the other cells run.
func TestBatch(t *testing.T) {
	one := testutil.WriteTree(t, `
-- a.go --
package a

func A() { x() }
-- .structls/xray/calls.star --
return {"matches": [{"line_number": c.start_point[0] + 1, "call": c.text} for c in node.descendants_of_type("call_expression")]}
`)
	two := testutil.WriteTree(t, "-- b.go --\npackage b\n\nfunc B() {}\n")
	var folders []workspace.Folder
	for i, dir := range []string{one, two} {
		f, err := workspace.NewFolder(dir, []string{"one", "two"}[i])
		if err != nil {
			t.Fatal(err)
		}
		folders = append(folders, f)
	}
	snap := workspace.NewSnapshot(folders, workspace.Settings{}, nil)
	q := Query{Scans: []Scan{
		{Driver: "func", Name: "funcs"},
		{Driver: "package", EvaluatorName: "calls", Name: "calls"},
	}, Format: "text"}
	res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, q)
	if err != nil {
		t.Fatal(err)
	}
	want := `# a.go
3|func A() { x() }
  scan: 0 funcs (folder one)
3|func A() { x() }
  scan: 1 calls (folder one)
  call="x()"

# b.go
3|func B() {}
  scan: 0 funcs (folder two)

cells that could not run:
folder two, scan 1 calls: evaluator "calls" not found: write it to .structls/xray/calls.star in folder two

3 matches; 3 of 3 candidate files evaluated
`
	if res.Text != want {
		t.Errorf("text:\n%s\nwant:\n%s", res.Text, want)
	}
	if !res.Partial || len(res.CellErrors) != 1 {
		t.Errorf("partial %v, cellErrors %+v; want partial with one cell error", res.Partial, res.CellErrors)
	}
}

// TestBatchInvalid: a batch is checked before any cell runs.
func TestBatchInvalid(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	many := make([]Scan, MaxScans+1)
	for i := range many {
		many[i] = Scan{Driver: "x"}
	}
	for name, tc := range map[string]struct {
		q    Query
		want string
	}{
		"too many":         {Query{Scans: many}, "at most 50 scans"},
		"driver and scans": {Query{Driver: "x", Scans: []Scan{{Driver: "y"}}}, "not both"},
		"empty driver":     {Query{Scans: []Scan{{Driver: ""}}}, "scans[0]: driver must not be empty"},
		"both evaluators":  {Query{Scans: []Scan{{Driver: "x", Evaluator: "return 1", EvaluatorName: "e"}}}, "scans[0]: give evaluator or evaluatorName"},
		"bad name":         {Query{Scans: []Scan{{Driver: "x", EvaluatorName: "../e"}}}, "must be a plain name"},
		"bad code":         {Query{Scans: []Scan{{Driver: "x"}, {Driver: "x", Evaluator: "return y"}}}, "scans[1]: evaluator does not compile"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, tc.q)
			var inputErr *workspace.InputError
			if !errors.As(err, &inputErr) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v; want an InputError containing %q", err, tc.want)
			}
		})
	}
}

// TestNamedEvaluatorIsADirectory: a directory named NAME.star is no
// evaluator: the cell says it is not a regular file, and no file inside
// it is run as the evaluator; nor is a symbolic link to a file outside
// the folder.
func TestNamedEvaluatorIsADirectory(t *testing.T) {
	dir := testutil.WriteTree(t, `
-- a.go --
package a
-- .structls/xray/calls.star/inner.star --
return {"matches": [{"line_number": 1}]}
`)
	folder, err := workspace.NewFolder(dir, "one")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	_, err = namedEvaluator(context.Background(), snap, folder, "calls")
	if err == nil || !strings.Contains(err.Error(), `.structls/xray/calls.star in folder one is not a regular file`) {
		t.Errorf("namedEvaluator(calls), calls.star a directory: %v; want not a regular file", err)
	}
	outside := filepath.Join(t.TempDir(), "evil.star")
	if err := os.WriteFile(outside, []byte("return {\"matches\": []}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, ".structls/xray/link.star")); err != nil {
		t.Fatal(err)
	}
	if _, err = namedEvaluator(context.Background(), snap, folder, "link"); err == nil || !strings.Contains(err.Error(), "a symbolic link to outside it") {
		t.Errorf("namedEvaluator(link), link.star a symbolic link out of the folder: %v; want refused as not a regular file inside it", err)
	}
	if _, err = namedEvaluator(context.Background(), snap, folder, "nosuch"); err == nil || !strings.Contains(err.Error(), `evaluator "nosuch" not found: write it to .structls/xray/nosuch.star`) {
		t.Errorf("namedEvaluator(nosuch): %v; want not found, and where to write it", err)
	}
}
