package grep

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

var update = flag.Bool("update", false, "rewrite the @want sections of the golden fixtures")

// TestFixtures runs every testdata/*.txtar fixture: its files form a
// workspace, "@query" is the structls.search argument (plus "encoding") and
// "@want" the expected result: the text rendering when the query asks for
// format "text", otherwise the JSON result with the workspace path as $WORK.
func TestFixtures(t *testing.T) {
	testutil.RunGolden(t, "testdata/*.txtar", *update, func(t *testing.T, dir string, sections map[string][]byte) []byte {
		return runFixture(t, dir, sections["@query"])
	})
}

func runFixture(t *testing.T, dir string, query []byte) []byte {
	t.Helper()
	var q struct {
		Query
		Encoding string `json:"encoding"`
	}
	if err := json.Unmarshal(query, &q); err != nil {
		t.Fatalf("@query: %v", err)
	}
	enc := workspace.UTF16
	if q.Encoding == "utf-8" {
		enc = workspace.UTF8
	}
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: enc}, q.Query)
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

func TestSearchInvalidQueries(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nhello\n")
	snap := snapshotOf(t, dir)
	neg, huge := -1, 1<<40
	for name, q := range map[string]Query{
		"empty pattern":      {Pattern: " "},
		"bad regex":          {Pattern: `a(?=b)`},
		"negative skip":      {Pattern: "a", Skip: -1},
		"negative limit":     {Pattern: "a", Limit: &neg},
		"absurd limit":       {Pattern: "a", Limit: &huge},
		"negative context":   {Pattern: "a", ContextBefore: &neg},
		"bad format":         {Pattern: "a", Format: "xml"},
		"bad glob":           {Pattern: "a", Scope: workspace.Scope{Globs: []string{"[a"}}},
		"all paths missing":  {Pattern: "a", Scope: workspace.Scope{Paths: []string{"x", "y"}}},
		"path outside":       {Pattern: "a", Scope: workspace.Scope{Paths: []string{"../"}}},
		"per-file negative":  {Pattern: "a", PerFileLimit: &neg},
		"line range on glob": {Pattern: "a", Scope: workspace.Scope{Paths: []string{"*.txt:1-2"}}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, q)
			var qe *workspace.InputError
			var pe *workspace.PathError
			if !errors.As(err, &qe) && !errors.As(err, &pe) {
				t.Fatalf("Search = %v; want a user error", err)
			}
			if len(err.Error()) < 15 {
				t.Errorf("message %q is too terse to act on", err)
			}
		})
	}
}

func TestSearchCancelled(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nhello\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Pattern: "hello"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Search on a cancelled context = %v; want context.Canceled", err)
	}
}

func TestSearchCapsAndTruncation(t *testing.T) {
	many := strings.Repeat("hit\n", 210)
	long := strings.Repeat("é", 300) + "hit" + strings.Repeat("x", 100) + "\n"
	dir := testutil.WriteTree(t, "-- many.txt --\n"+many+"-- other.txt --\n"+many+"-- long.txt --\n"+long)
	snap := snapshotOf(t, dir)
	search := func(q Query) *Result {
		t.Helper()
		res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, q)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := search(Query{Pattern: "hit", Scope: workspace.Scope{Paths: []string{"many.txt"}}}); res.MatchCount != 200 || !res.PerFileLimitReached {
		t.Errorf("single file: %d matches, perFileLimitReached %v; want 200, true", res.MatchCount, res.PerFileLimitReached)
	}
	if res := search(Query{Pattern: "hit"}); res.MatchCount != 41 || !res.PerFileLimitReached || res.FileCount != 3 {
		t.Errorf("directory: %d matches in %d files; want 20+20+1 in 3", res.MatchCount, res.FileCount)
	}
	zero := 0
	if res := search(Query{Pattern: "hit", PerFileLimit: &zero}); res.MatchCount != 421 || res.PerFileLimitReached {
		t.Errorf("unlimited: %d matches; want 421", res.MatchCount)
	}
	res := search(Query{Pattern: "hit", Scope: workspace.Scope{Paths: []string{"long.txt"}}})
	m := res.Matches[0]
	if !m.Truncated || !res.LinesTruncated || len(m.LineText) > MaxLineColumns || !strings.HasSuffix(m.LineText, "...") {
		t.Errorf("long line: truncated %v, %d bytes", m.Truncated, len(m.LineText))
	}
	if sub := m.Submatches[0]; sub.Range.Start.Character != 300 || sub.ByteRange.Start != 600 {
		t.Errorf("long line submatch at %+v; want column 300, byte 600", sub)
	}
}

func TestSearchSeesOpenDocuments(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\non disk\n")
	f, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	o := workspace.NewOverlay()
	o.Open(workspace.PathToURI(filepath.Join(dir, "a.txt")), "plaintext", 3, "in the buffer\n")
	o.Open(workspace.PathToURI(filepath.Join(dir, "new.txt")), "plaintext", 1, "a new buffer\n")
	snap := workspace.NewSnapshot([]workspace.Folder{f}, workspace.Settings{}, o.Documents())
	res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Pattern: "disk|buffer"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Matches {
		got = append(got, m.Path+": "+m.LineText)
	}
	if diff := cmp.Diff([]string{"a.txt: in the buffer", "new.txt: a new buffer"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSearchMatchRange checks that a match's range is its first submatch's,
// so that a client can use a match as a location as it is.
func TestSearchMatchRange(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nfirst\né x 😀 x\n")
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Pattern: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || len(res.Matches[0].Submatches) != 2 {
		t.Fatalf("got %+v; want one match with two submatches", res.Matches)
	}
	m := res.Matches[0]
	want := workspace.Range{Start: workspace.Position{Line: 1, Character: 2}, End: workspace.Position{Line: 1, Character: 3}}
	if m.Range != want || m.Range != m.Submatches[0].Range {
		t.Errorf("match range %+v; want %+v, the first submatch's", m.Range, want)
	}
}

// TestSearchByteOrderMark: a file's UTF-8 byte order mark is neither shown
// in its first line nor counted in its columns (ripgrep drops it, and
// editors keep it out of their buffers).
func TestSearchByteOrderMark(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.js --\n\ufeffconsole.log(1)\n")
	f, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{f}, workspace.Settings{}, nil)
	res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Pattern: "log"})
	if err != nil || len(res.Matches) != 1 {
		t.Fatalf("%v, %+v", err, res)
	}
	m := res.Matches[0]
	if m.LineText != "console.log(1)" || m.Range.Start.Character != 8 || m.Submatches[0].ByteRange.Start != 11 {
		t.Errorf("line %q, range %+v, byte range %+v; want the text without the mark, column 8, byte 11",
			m.LineText, m.Range, m.Submatches[0].ByteRange)
	}
}

// TestSearchSkipsBinaryFiles: a file on disk holding a NUL byte is never
// searched, wherever the NUL is and whatever path the query takes (literal
// prefilter, case folding, no literal at all), now that the check waits for
// the prefilter; an open document is searched as it is, as before.
func TestSearchSkipsBinaryFiles(t *testing.T) {
	dir := testutil.WriteTree(t, "-- text.txt --\nneedle in text\n")
	for name, content := range map[string]string{
		"nul-after.bin":  "needle before\x00 the NUL\n",
		"nul-before.bin": "\x00\nneedle after the NUL\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	o := workspace.NewOverlay()
	o.Open(workspace.PathToURI(filepath.Join(dir, "doc.txt")), "plaintext", 1, "needle\x00 in a buffer\n")
	snap := workspace.NewSnapshot([]workspace.Folder{f}, workspace.Settings{}, o.Documents())
	for _, q := range []Query{{Pattern: "needle", Literal: true}, {Pattern: "NEEDLE", IgnoreCase: true}, {Pattern: `\pL\pL\pL\pL\pL\pL`}} {
		res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range res.Matches {
			got = append(got, m.Path)
		}
		if diff := cmp.Diff([]string{"doc.txt", "text.txt"}, got); diff != "" {
			t.Errorf("%q: files with a match (-want +got):\n%s", q.Pattern, diff)
		}
	}
}
