package outline

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

var update = flag.Bool("update", false, "rewrite the @want sections of the golden fixtures")

// TestViews runs every testdata/views/*.txtar fixture: its files form a
// workspace, "@query" is the structls.outline argument and "@want" the
// text rendering (format text) or else the JSON result ($WORK for the
// workspace URI).
func TestViews(t *testing.T) {
	testutil.RunGolden(t, "testdata/views/*.txtar", *update, func(t *testing.T, dir string, sections map[string][]byte) []byte {
		return runQuery(t, dir, sections["@query"])
	})
}

func runQuery(t *testing.T, dir string, query []byte) []byte {
	t.Helper()
	var q Query
	if err := json.Unmarshal(query, &q); err != nil {
		t.Fatalf("@query: %v", err)
	}
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q)
	if err != nil {
		return []byte("error: " + err.Error() + "\n")
	}
	if q.Format == "text" {
		return []byte(res.Text)
	}
	out, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(strings.ReplaceAll(string(out), workspace.PathToURI(dir), "$WORK")), '\n')
}

func snapshotOf(t testing.TB, dir string) *workspace.Snapshot {
	t.Helper()
	f, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return workspace.NewSnapshot([]workspace.Folder{f}, workspace.Settings{}, nil)
}

// TestInvalidQueries: each bad argument is an InputError saying what to use.
func TestInvalidQueries(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n")
	neg := -1
	for name, c := range map[string]struct {
		q    Query
		want string
	}{
		"items":                 {Query{Items: "everything"}, "use one of auto, structure, exports, imports, all"},
		"view":                  {Query{View: "full"}, "use one of auto, names, signatures, digest, expanded"},
		"type":                  {Query{Types: []string{"function,klass"}}, `type "klass" is not a symbol type`},
		"match":                 {Query{Match: "a("}, "match is not a valid regular expression"},
		"limit":                 {Query{Limit: &neg}, "limit must be 0"},
		"skip":                  {Query{Skip: -2}, "skip must be a non-negative number"},
		"format":                {Query{Format: "xml"}, `format "xml" is not supported`},
		"lang":                  {Query{Lang: "klingon"}, "klingon"},
		"textOnly without text": {Query{TextOnly: true}, `textOnly needs "format": "text"`},
	} {
		_, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, c.q)
		var inputErr *workspace.InputError
		if !errors.As(err, &inputErr) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want an InputError saying %q", name, err, c.want)
		}
	}
}

// TestSummaryCap: the names view of a directory stops after
// MaxSummarySymbols names and says how to narrow the query.
func TestSummaryCap(t *testing.T) {
	var b strings.Builder
	for f := range 3 {
		fmt.Fprintf(&b, "-- f%d.go --\npackage a\n\n", f)
		for i := range 150 {
			fmt.Fprintf(&b, "func F%d_%d() {}\n", f, i)
		}
	}
	dir := testutil.WriteTree(t, b.String())
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Count(res.Text, "F")
	if names != MaxSummarySymbols || !strings.Contains(res.Text, "… 250 more symbols in 2 files not shown in full: narrow the outline with paths, types or match") {
		t.Errorf("summary lists %d names; want %d and the hint:\n%s", names, MaxSummarySymbols, res.Text[len(res.Text)-200:])
	}
}

// TestPaging: limit and skip page through files; limitReached and
// nextSkip say where the next page starts.
func TestPaging(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\nfunc A() {}\n-- b.go --\npackage a\nfunc B() {}\n-- c.go --\npackage a\nfunc C() {}\n")
	two := 2
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Limit: &two})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 2 || !res.LimitReached || !nextSkipIs(res, 2) || res.FilesSearched != 3 {
		t.Fatalf("first page: %d files, limitReached %v, nextSkip %v, filesSearched %d", len(res.Files), res.LimitReached, res.NextSkip, res.FilesSearched)
	}
	res, err = Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Limit: &two, Skip: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || res.Files[0].Path != "c.go" || res.LimitReached {
		t.Errorf("second page: %+v", res.Files)
	}
}

// TestTextOnly: textOnly leaves the files out and keeps the text and the
// item count.
func TestTextOnly(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\nfunc A() {}\nfunc B() {}\n")
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Format: "text", TextOnly: true, Scope: workspace.Scope{Paths: []string{"a.go"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 0 || res.ItemCount != 2 || res.Text != "a.go\n2: func A()\n3: func B()\n" {
		t.Errorf("files %d, itemCount %d, text %q", len(res.Files), res.ItemCount, res.Text)
	}
}

// TestSearchReleasesWorkerArenas: without a parse cache (the CLI, or a
// server with parseCacheMB 0) each worker parses into its own arena, kept
// from file to file; when the outline ends the arenas are given back, not
// held until a collection finds the workers' scratches dropped.
func TestSearchReleasesWorkerArenas(t *testing.T) {
	dir := testutil.LargeGoDir(t, 5000)
	// No collection may run the dropped scratches' cleanups meanwhile: only
	// the release at the end of the run gives the arenas back.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := syntax.ArenaBytes()
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Items: ItemsAll})
	if err != nil {
		t.Fatal(err)
	}
	if res.ItemCount != 10000 {
		t.Fatalf("%d items; want 10000", res.ItemCount)
	}
	if after := syntax.ArenaBytes(); after-before >= 8<<20 { // a kept arena holds 16 MiB here
		t.Errorf("the process's arenas hold %d bytes after the outline, %d before", after, before)
	}
}
