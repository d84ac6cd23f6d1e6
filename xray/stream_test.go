package xray

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestSearchStream: a streamed run hands over the matches in batches, in
// their final order, and concatenating the batches (matches and text)
// with the reply gives exactly the unstreamed reply; the reply itself holds
// no matches.
func TestSearchStream(t *testing.T) {
	var files strings.Builder
	for i := range 12 {
		fmt.Fprintf(&files, "-- d%d/f%d.go --\npackage a\n\nfunc F() {}\n", i%3, i)
	}
	files.WriteString("-- bad.go --\npackage a\n")
	dir := testutil.WriteTree(t, files.String())
	evaluator := `
if file_path == "bad.go":
    return 1
n = {"d0/f0.go": 1500, "d0/f6.go": 2000}.get(file_path, 300)  # files that fill a batch alone, first and after others
return {"matches": [{"line_number": 1 + i % 4, "i": i} for i in range(n)], "value": file_path}`
	for _, format := range []string{"", "text"} {
		q := Query{Driver: "package", Evaluator: evaluator, Format: format}
		want, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q)
		if err != nil {
			t.Fatal(err)
		}
		var batches []Batch
		got, err := SearchStream(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q, func(b Batch) error { batches = append(batches, b); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Matches) != 0 || len(batches) < 2 {
			t.Fatalf("format %q: %d matches in the reply, %d batches; want none and several", format, len(got.Matches), len(batches))
		}
		var text strings.Builder
		for _, b := range batches {
			got.Matches = append(got.Matches, b.Matches...)
			text.WriteString(b.Text)
		}
		text.WriteString(got.Text)
		got.Text = text.String()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("format %q: streamed (+) differs from unstreamed (-):\n%s", format, diff)
		}
		if want.MatchCount != 10*300+1500+2000 || len(want.EvaluationErrors) != 1 || len(want.FileMetadata) != 12 {
			t.Errorf("format %q: %d matches, %d errors, %d metadata; want 6500, 1, 12", format, want.MatchCount, len(want.EvaluationErrors), len(want.FileMetadata))
		}
	}
}

// TestSearchStreamEmitFails: when the receiver fails (the client went
// away), the run stops with its error.
func TestSearchStreamEmitFails(t *testing.T) {
	var files strings.Builder
	for i := range 40 {
		fmt.Fprintf(&files, "-- f%d.go --\npackage a\n", i)
	}
	dir := testutil.WriteTree(t, files.String())
	gone := errors.New("client gone")
	calls := 0
	_, err := SearchStream(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "package", Evaluator: `return {"matches": [{"line_number": 1} for i in range(600)]}`}, func(Batch) error { calls++; return gone })
	if !errors.Is(err, gone) || calls != 1 {
		t.Errorf("error %v after %d emits; want the emit's error after 1", err, calls)
	}
}
