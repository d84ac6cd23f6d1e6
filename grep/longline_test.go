package grep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/workspace"
)

// hugeLine is one line of about 3 MB holding n matches of "xy", each after
// a 2-byte and a 4-byte character, so that UTF-16 columns differ from bytes.
func hugeLine(n int) string {
	return strings.Repeat("é😀 xy "+strings.Repeat("a", 50), n)
}

// TestSearchHugeOneLineFile searches a one-line file of several MB with
// 50,000 matches on its only line, in every encoding and both scan paths
// (literal prefilter, plain regex). Positions used to be counted from the
// line start for each submatch (hours for this file); the deadline only
// detects a hang.
func TestSearchHugeOneLineFile(t *testing.T) {
	const matches = 50_000
	dir := t.TempDir()
	line := hugeLine(matches)
	if err := os.WriteFile(filepath.Join(dir, "min.js"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := snapshotOf(t, dir)
	// Each piece is "é😀 xy " and 50 × "a": its length and the column of its
	// "x" in each encoding.
	pieceUnits := map[workspace.Encoding][2]int{workspace.UTF8: {60, 7}, workspace.UTF16: {57, 4}, workspace.UTF32: {56, 3}}
	for _, tc := range []struct {
		pattern string
		enc     workspace.Encoding
	}{{"xy", workspace.UTF16}, {"[x]y", workspace.UTF32}, {"xy", workspace.UTF8}} {
		done := make(chan *Result, 1)
		go func() {
			res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: tc.enc}, Query{Pattern: tc.pattern})
			if err != nil {
				t.Error(err)
			}
			done <- res
		}()
		var res *Result
		select {
		case res = <-done:
		case <-time.After(2 * time.Minute):
			t.Fatalf("%q in %v: no result after 2 minutes on a one-line file of %d bytes", tc.pattern, tc.enc, len(line))
		}
		if res == nil || len(res.Matches) != 1 || len(res.Matches[0].Submatches) != matches {
			t.Fatalf("%q in %v: want one matching line with %d submatches", tc.pattern, tc.enc, matches)
		}
		last := res.Matches[0].Submatches[matches-1]
		wantByte := (matches-1)*pieceUnits[workspace.UTF8][0] + pieceUnits[workspace.UTF8][1]
		wantColumn := (matches-1)*pieceUnits[tc.enc][0] + pieceUnits[tc.enc][1]
		if last.ByteRange.Start != wantByte || last.Range.Start.Character != wantColumn {
			t.Errorf("%q in %v: last submatch at byte %d, column %d; want byte %d, column %d", tc.pattern, tc.enc,
				last.ByteRange.Start, last.Range.Start.Character, wantByte, wantColumn)
		}
	}
}

// cancelAfterChecks is a context that reports cancellation once Err has
// been asked a given number of times: it ends a scan at a known point.
type cancelAfterChecks struct {
	context.Context
	left atomic.Int64
}

func (c *cancelAfterChecks) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestScanCancelledInsideOneLine checks that cancellation stops the scan of
// a file whose only line holds 50,000 matches, part way through the line.
func TestScanCancelledInsideOneLine(t *testing.T) {
	const matches = 50_000
	content := []byte(hugeLine(matches))
	for _, pattern := range []string{"xy", "[x]y", `xy(?s:.)?`} {
		m, err := compile(Query{Pattern: pattern}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx := &cancelAfterChecks{Context: context.Background()}
		ctx.left.Store(1)
		sc := &scanner{m: m, enc: workspace.UTF16}
		scan := sc.scan(ctx, workspace.File{Rel: "min.js"}, content, &scratch{})
		built := 0
		for _, m := range scan.matches {
			built += len(m.Submatches)
		}
		if built >= matches {
			t.Errorf("%q: a cancelled scan built all %d submatch positions; want it to stop part way", pattern, built)
		}
		if ctx.left.Load() >= 0 {
			t.Errorf("%q: the scan never looked at the cancellation", pattern)
		}
	}
}

// TestSearchCancelledOnHugeLine cancels a search over a huge one-line file
// while it runs: it ends with context.Canceled (or, if it was faster than the
// cancel, a result) well within the deadline.
func TestSearchCancelledOnHugeLine(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "min.js"), []byte(hugeLine(60_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Search(ctx, engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Pattern: "xy"})
		done <- err
	}()
	time.Sleep(5 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("Search = %v; want context.Canceled or a result", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Search ignored its cancellation for a minute")
	}
}

// TestScanReusesWorkerMemory: scanning a file that passes the literal
// prefilter reuses the worker's scratch (the line table above all, which
// is as long as the file), so a file with a candidate but no match
// allocates nothing.
func TestScanReusesWorkerMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are counted without the race detector (see raceEnabled)")
	}
	content := []byte(strings.Repeat("no match on this line, not one\n", 10_000) + "x = 1\n")
	for _, pattern := range []string{`\pL\d`, `(?i)NOT.\d`} {
		m, err := compile(Query{Pattern: pattern}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sc := &scanner{m: m, enc: workspace.UTF16}
		var w scratch
		sc.scan(context.Background(), workspace.File{Rel: "a.txt"}, content, &w)
		if n := testing.AllocsPerRun(10, func() { sc.scan(context.Background(), workspace.File{Rel: "a.txt"}, content, &w) }); n > 0 {
			t.Errorf("%s: a scan without a match made %v allocations; want none", pattern, n)
		}
	}
}

// TestScanMakesAFileURIOnce: the matches of a file share one URI string,
// made for the first (a URI per match was a path join and an escape each,
// for each of a hundred thousand matches).
func TestScanMakesAFileURIOnce(t *testing.T) {
	m, err := compile(Query{Pattern: "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := &scanner{m: m, enc: workspace.UTF16}
	f := workspace.File{Rel: "dir/a b.txt", Abs: "/w/dir/a b.txt"}
	scan := sc.scan(context.Background(), f, []byte(strings.Repeat("x\n", 100)), &scratch{})
	if len(scan.matches) != 100 {
		t.Fatalf("%d matches; want 100", len(scan.matches))
	}
	for _, m := range scan.matches {
		if m.URI != f.URI() || unsafe.StringData(m.URI) != unsafe.StringData(scan.matches[0].URI) {
			t.Fatalf("match on line %d has URI %q (its own copy); want the file's %q, shared", m.LineNumber, m.URI, f.URI())
		}
	}
}
