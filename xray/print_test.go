package xray

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestPrintGoesToTheLog: print is no error; its output goes to the run's
// PrintFunc, at most 100 lines a file, with a note where it is cut.
func TestPrintGoesToTheLog(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	var mu sync.Mutex
	var lines []string
	ctx := WithPrint(context.Background(), func(path, text string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, path+": "+text)
	})
	code := `print("hello from", file_path, 1)
if file_path == "b.go":
    for i in range(500):
        print("line", i)
return {"matches": [{"line_number": 1}]}`
	res, err := search(ctx, engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "func", Evaluator: code}, DefaultLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.EvaluationErrors) > 0 || len(res.Matches) != 2 {
		t.Fatalf("errors %+v, %d matches; want none and 2", res.EvaluationErrors, len(res.Matches))
	}
	if !slices.Contains(lines, "a.go: hello from a.go 1") || !slices.Contains(lines, "b.go: line 98") || slices.Contains(lines, "b.go: line 99") {
		t.Errorf("print output %q; want a.go's greeting and b.go's lines up to 98 (100 lines in all)", lines[:min(len(lines), 5)])
	}
	if n := len(lines); n != 102 || !slices.ContainsFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "b.go: (print output of this file past 100 lines or 16 KiB is dropped)")
	}) {
		t.Errorf("%d lines; want 102, one saying that the rest of b.go's is dropped", n)
	}
	// Without a PrintFunc, print does nothing.
	res, err = search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "func", Evaluator: code}, DefaultLimits, nil)
	if err != nil || len(res.EvaluationErrors) > 0 {
		t.Fatal(err, res.EvaluationErrors)
	}
}

// TestRangeIsLazy: a range allocates nothing, so any length is allowed; the
// step budget bounds a loop over it, and materialising it is charged.
func TestRangeIsLazy(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc A() {}\n"+strings.Repeat("// filler line\n", 200_000)) // 3 MB: above range's old cap of 1,048,576
	code := `n = 0
for i in range(len(source)):
    if source[i] == "\n":
        n += 1
return {"matches": [{"line_number": 1, "lines": n, "huge": len(range(10000000000000))}]}`
	minute := 60_000 // the loop takes seconds under -race
	res, err := search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "func", Evaluator: code, FileTimeoutMs: &minute}, DefaultLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.EvaluationErrors) > 0 || len(res.Matches) != 1 {
		t.Fatalf("errors %+v; want none", res.EvaluationErrors)
	}
	if got := fmt.Sprint(res.Matches[0].Fields["lines"], " ", res.Matches[0].Fields["huge"]); got != "200003 10000000000000" {
		t.Errorf("lines, huge = %s; want 200003 10000000000000", got)
	}
}
