package xray

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/grep"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// manyHitsFile writes a Go file of 100,000 lines (the driver's per-file
// cap of hits), each three top-level declarations: a root of 600,000
// children, which a scan from the first child for every hit took minutes
// over.
func manyHitsFile(t *testing.T) string {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package a\n")
	for i := range MaxMatchesPerFile - 1 {
		fmt.Fprintf(&b, "var a%d=1;var b%d=1;var c%d=1\n", i, i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestManyHitsFinish: match_positions of a file with 100,000 hits is built
// in one pass (issue 21, item 7); the evaluation ends, with every hit.
func TestManyHitsFinish(t *testing.T) {
	dir := manyHitsFile(t)
	minute := 60_000
	done := make(chan error, 1)
	var res *Result
	go func() {
		var err error
		res, err = search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "^var", FileTimeoutMs: &minute,
			Evaluator: `return {"matches": [{"line_number": p["line_number"], "n": p["ast_node"].type} for p in match_positions]}`}, DefaultLimits, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Minute):
		t.Fatal("the evaluation of a file with 100,000 hits did not end within 5 minutes")
	}
	if len(res.EvaluationErrors) > 0 || len(res.Matches) != MaxMatchesPerFile-1 {
		t.Fatalf("errors %+v, %d matches; want none, %d", res.EvaluationErrors, len(res.Matches), MaxMatchesPerFile-1)
	}
	if m := res.Matches[len(res.Matches)-1]; m.LineNumber != MaxMatchesPerFile || m.Fields["n"] != "var_declaration" {
		t.Errorf("last match %+v; want line %d at a var_declaration", m, MaxMatchesPerFile)
	}
}

// TestFileTimeoutCoversPositions: the per-file time limit counts building
// match_positions: 100,000 hits cannot be made into dicts within 1 ms, so
// the file ends in EvaluatorTimeout even though its evaluator does nothing.
func TestFileTimeoutCoversPositions(t *testing.T) {
	dir := manyHitsFile(t)
	one := 1
	res, err := search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "^var", FileTimeoutMs: &one,
		Evaluator: `return {"matches": []}`}, DefaultLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.EvaluationErrors) != 1 || res.EvaluationErrors[0].ErrorType != EvaluatorTimeout ||
		!strings.Contains(res.EvaluationErrors[0].ErrorMessage, "1 ms per-file limit (fileTimeoutMs)") {
		t.Fatalf("errors %+v; want one EvaluatorTimeout at the 1 ms limit", res.EvaluationErrors)
	}
}

// TestPositionsStopOnCancel: building match_positions stops when the
// request is cancelled, not after the last hit.
func TestPositionsStopOnCancel(t *testing.T) {
	tree, hits := parseWithHits(t, strings.Repeat("var x = 1\n", 5000))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := matchPositions(ctx, &Node{tree: tree}, hits); !errors.Is(err, context.Canceled) {
		t.Fatalf("matchPositions after a cancel: %v; want context.Canceled", err)
	}
	list, err := matchPositions(context.Background(), &Node{tree: tree}, hits)
	if err != nil || list.Len() != 5001 {
		t.Fatalf("matchPositions: %v, %d positions; want 5001", err, list.Len())
	}
}

// parseWithHits parses a Go file (after a package clause) and makes a hit
// at the start of each of its lines.
func parseWithHits(t *testing.T, body string) (*syntax.Tree, []grep.Match) {
	t.Helper()
	src := "package a\n" + body
	tree, err := syntax.Parse(context.Background(), lang.ForPath("a.go").Grammar(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var hits []grep.Match
	start := 0
	for i, line := range strings.SplitAfter(src, "\n") {
		if line != "" {
			hits = append(hits, grep.Match{LineNumber: i + 1, Submatches: []grep.Submatch{{ByteRange: workspace.ByteRange{Start: start}}}})
		}
		start += len(line)
	}
	return tree, hits
}

// TestNodeFinderAgrees: the one-pass finder gives nodeAtByteOffset's
// answer for every offset of a file, in order, and in a random order.
func TestNodeFinderAgrees(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "astgrep", "search.go"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := syntax.Parse(context.Background(), lang.ForPath("a.go").Grammar(), src)
	if err != nil {
		t.Fatal(err)
	}
	offsets := make([]int, len(src)+2)
	for i := range offsets {
		offsets[i] = i - 1 // -1 and len(src) are outside the file
	}
	for _, order := range []string{"increasing", "random"} {
		if order == "random" {
			rand.Shuffle(len(offsets), func(i, j int) { offsets[i], offsets[j] = offsets[j], offsets[i] })
		}
		f := newNodeFinder(tree, 0)
		for _, off := range offsets {
			if got, want := f.find(off), nodeAtByteOffset(tree, 0, off); got != want {
				t.Fatalf("%s offsets: at %d the finder gives node %d, nodeAtByteOffset %d", order, off, got, want)
			}
		}
	}
}
