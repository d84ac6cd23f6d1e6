package xray

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestFileOutputCap: one 16 MB string in 50 matches is 800 MB of output;
// the file gets an InvalidEvaluatorReturn naming the cap, the others their
// matches.
func TestFileOutputCap(t *testing.T) {
	res := evaluate(t, `if file_path == "a.go":
    s = "x" * 16000000
    return {"matches": [{"line_number": 1, "t": s} for i in range(50)]}
return {"matches": [{"line_number": 1}]}`, DefaultLimits)
	if len(res.EvaluationErrors) != 1 || len(res.Matches) != 1 || res.Matches[0].Path != "b.go" {
		t.Fatalf("matches %d, errors %+v; want b.go's match and a.go's error", len(res.Matches), res.EvaluationErrors)
	}
	if e := res.EvaluationErrors[0]; e.ErrorType != InvalidEvaluatorReturn || !strings.Contains(e.ErrorMessage, "more than 64 MiB") {
		t.Errorf("a.go: %s %q; want InvalidEvaluatorReturn naming the 64 MiB a file may output", e.ErrorType, e.ErrorMessage)
	}
	// Matches on one very long line repeat it: the same cap.
	long := strings.Repeat("x", 1<<20)
	dir := testutil.WriteTree(t, "-- a.go --\npackage a // "+long+"\n-- b.go --\npackage b\n")
	res, err := search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "package",
		Evaluator: `return {"matches": [{"line_number": 1} for i in range(100)]}`}, DefaultLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.EvaluationErrors) != 1 || len(res.Matches) != 100 || res.Matches[0].Path != "b.go" ||
		!strings.Contains(res.EvaluationErrors[0].ErrorMessage, "would output more than the 64 MiB a file may") {
		t.Errorf("%d matches, errors %+v; want b.go's 100 and an error for a.go", len(res.Matches), res.EvaluationErrors)
	}
}

// TestErrorMessageCap: an evaluator's own error message is cut at 4 KiB.
func TestErrorMessageCap(t *testing.T) {
	res := evaluate(t, `fail("x" * 10000000)`, DefaultLimits)
	if len(res.EvaluationErrors) != 2 || len(res.EvaluationErrors[0].ErrorMessage) > maxErrorMessage+len("…") {
		t.Fatalf("errors of %d bytes; want 2 errors of at most 4 KiB", len(jsonText(res.EvaluationErrors)))
	}
}

// manyMatchFiles writes 20 files whose evaluator returns 1,000 matches each.
func manyMatchFiles(t *testing.T) (string, Query) {
	var files strings.Builder
	for i := range 20 {
		fmt.Fprintf(&files, "-- f%02d.go --\npackage a // %s\n", i, strings.Repeat("y", 200))
	}
	return testutil.WriteTree(t, files.String()), Query{Driver: "package",
		Evaluator: `return {"matches": [{"line_number": 1} for i in range(1000)]}`}
}

// TestRunOutputLimit: a run stops at its output limit with the files
// before it whole, partial, outputLimitReached and a warning that says
// what to do; streamed or not, and in text (whose matches stop at the
// text's cap, counted all the same).
func TestRunOutputLimit(t *testing.T) {
	defer func(kept, streamed int) { maxRunOutputKept, maxRunOutputStreamed = kept, streamed }(maxRunOutputKept, maxRunOutputStreamed)
	maxRunOutputKept, maxRunOutputStreamed = 1<<20, 1<<20 // a file's 1,000 matches are about 480 KB: two fit
	dir, q := manyMatchFiles(t)
	for _, streamed := range []bool{false, true} {
		for _, format := range []string{"", "text"} {
			q.Format = format
			matches := 0
			var emit func(Batch) error
			if streamed {
				emit = func(b Batch) error { matches += len(b.Matches); return nil }
			}
			res, err := search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q, DefaultLimits, emit)
			if err != nil {
				t.Fatal(err)
			}
			matches += len(res.Matches)
			if format == "text" { // the text and its matches stop at the 50 KB cap; the count goes on
				matches = res.MatchCount
			}
			if matches != 2000 || res.MatchCount != 2000 || res.FilesEvaluated != 2 || !res.Partial || !res.OutputLimitReached ||
				len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "the output reached its limit of 1 MiB after 2 of 20 candidate files") {
				t.Errorf("streamed %v, format %q: %d matches, %d files, partial %v, limit %v, warnings %q; want 2000, 2, true, true and the limit's warning",
					streamed, format, matches, res.FilesEvaluated, res.Partial, res.OutputLimitReached, res.Warnings)
			}
			if format == "text" && !strings.Contains(res.Text, "2000 matches; 2 of 20 candidate files evaluated; stopped at the output limit (partial)") {
				t.Errorf("streamed %v: text summary %q; want it to say the output limit stopped the run", streamed, res.Text[max(0, len(res.Text)-300):])
			}
		}
	}
}

// TestBytesInFlight: while the receiver of a streamed run does not read,
// the workers stop once the evaluated files waiting for it pass the bound
// in bytes, long before the 512 files the window lets them run ahead.
func TestBytesInFlight(t *testing.T) {
	defer func(held int) { maxBytesInFlight = held }(maxBytesInFlight)
	maxBytesInFlight = 1 << 20 // two files' matches
	dir, q := manyMatchFiles(t)
	var mu sync.Mutex
	evaluated := 0
	release := make(chan struct{})
	first := true
	done := make(chan error, 1)
	go func() {
		_, err := search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16, Progress: func(done, total int) {
			if total == 0 {
				return // the driver's count
			}
			mu.Lock()
			evaluated = max(evaluated, done)
			mu.Unlock()
		}}, q, DefaultLimits, func(Batch) error {
			if first {
				first = false
				<-release // a reader that stops at the first batch
			}
			return nil
		})
		done <- err
	}()
	// Wait until the workers make no progress for a second (or all 20 are done).
	last, still := -1, 0
	for range 600 {
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		n := evaluated
		mu.Unlock()
		if still++; n != last {
			last, still = n, 0
		}
		if still == 10 || n == 20 {
			break
		}
	}
	mu.Lock()
	n := evaluated
	mu.Unlock()
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// Delivered: 1 (its batch waiting); held: at most 1 MiB (two files),
	// plus the one a worker evaluated and waits to hold, per worker.
	if n > 8 {
		t.Errorf("%d of 20 files evaluated while the reader did not read; want the bytes in flight to stop the workers after a few", n)
	}
}
