package lsp

import (
	"context"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
)

// TestFastQueryShowsNoProgress checks that a query done before
// progressDelay creates no progress token and sends no $/progress.
func TestFastQueryShowsNoProgress(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc f() {}\n")
	ed := newEditor(t, dir, client.EditorOptions{WorkDoneProgress: true})
	if _, err := searchResult(t, ed, map[string]any{"pattern": "func"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ed.ExecuteCommand(context.Background(), CommandAstGrep, map[string]any{"pattern": "func $F() {}", "lang": "go"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * progressDelay) // a late Begin would show up by now
	if created, events := ed.CreatedTokens(), ed.Progress(); len(created) != 0 || len(events) != 0 {
		t.Errorf("fast queries made progress: created %q, events %+v; want none", created, events)
	}
}

// TestSlowQueryProgress checks the progress of a query that runs for
// seconds: one token, Begin → Reports → End, and the percentages, sent
// only against a known total, never go backwards.
func TestSlowQueryProgress(t *testing.T) {
	dir := bigTree(t, 40, 20000) // seconds of regex work: many reports
	ed := newEditor(t, dir, client.EditorOptions{WorkDoneProgress: true})
	start := time.Now()
	if _, err := searchResult(t, ed, slowQuery); err != nil {
		t.Fatal(err)
	}
	t.Logf("the search took %v", time.Since(start))
	created, events := ed.CreatedTokens(), ed.Progress()
	if len(created) != 1 {
		t.Fatalf("created tokens %q; want one", created)
	}
	if len(events) < 3 || events[0].Kind != "begin" || events[len(events)-1].Kind != "end" {
		t.Fatalf("events %+v; want begin, reports, end", events)
	}
	last := -1
	for i, ev := range events {
		if ev.Token != created[0] {
			t.Errorf("event %d on token %s; want %s", i, ev.Token, created[0])
		}
		if i == 0 || i == len(events)-1 {
			continue
		}
		if ev.Kind != "report" {
			t.Errorf("event %d is %q; want a report", i, ev.Kind)
		}
		if ev.Percentage == nil {
			continue
		}
		if *ev.Percentage < last || *ev.Percentage > 100 {
			t.Errorf("event %d: percentage %d after %d", i, *ev.Percentage, last)
		}
		last = *ev.Percentage
	}
	if last < 0 {
		t.Errorf("no report carried a percentage: %+v", events)
	}
}

// TestFileCount: the figure shown never goes back within a stage (worker
// reports cross), restarts with a new total (X-Ray's evaluation after its
// driver), and ignores a late total-0 report once a total is known.
func TestFileCount(t *testing.T) {
	type report struct{ done, total, wantShown int }
	for _, tc := range []struct {
		name    string
		reports []report
	}{
		{"crossing workers", []report{{3, 10, 3}, {2, 10, 3}, {4, 10, 4}}},
		{"walk ends: the total becomes known", []report{{5, 0, 5}, {6, 12, 6}, {7, 12, 7}}},
		{"late report from before the total", []report{{6, 12, 6}, {5, 0, -1}, {7, 12, 7}}},
		{"driver then evaluation", []report{{400, 0, 400}, {1, 3, 1}, {3, 3, 3}}},
	} {
		var c fileCount
		for i, r := range tc.reports {
			ok := c.add(r.done, r.total)
			if shown := c.done; ok != (r.wantShown >= 0) || ok && shown != r.wantShown {
				t.Errorf("%s: report %d (%d/%d): current %v, shows %d; want %d (-1: dropped)", tc.name, i, r.done, r.total, ok, shown, r.wantShown)
			}
		}
	}
}
