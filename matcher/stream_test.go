package matcher

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/matcher/syntax"
	"github.com/structls/structls/workspace"
)

// streamTree is a workspace of many files whose walk order differs from
// the results' order ("a/x.go" is walked before "a.go", sorted after it),
// each with a few matches of f($A).
func streamTree(t *testing.T) string {
	var b strings.Builder
	for i := range 150 {
		fmt.Fprintf(&b, "-- d%02d/f%03d.go --\npackage p\n\nfunc g() { f(%d); f(\"<&>\"); f(x) }\n", i%7, i, i)
	}
	b.WriteString("-- a/x.go --\npackage a\n\nfunc g() { f(1) }\n-- a.go --\npackage a\n\nfunc g() { f(2) }\n")
	return testutil.WriteTree(t, b.String())
}

// TestSearchStreamMatchesSearch: the batches SearchStream emits, followed by
// its final result, are exactly what Search returns — the same matches in
// the same order, the same text — for every page, with and without a cache.
func TestSearchStreamMatchesSearch(t *testing.T) {
	dir := streamTree(t)
	folder, err := workspace.NewFolder(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	for _, tt := range []struct {
		name  string
		query Query
		cache *syntax.Cache
	}{
		{"all", Query{Pattern: "f($A)", Limit: intp(0)}, nil},
		{"all, text", Query{Pattern: "f($A)", Limit: intp(0), Format: "text"}, nil},
		{"page", Query{Pattern: "f($A)", Skip: 7, Limit: intp(100), Format: "text"}, nil},
		{"page, cached", Query{Pattern: "f($A)", Skip: 300, Limit: intp(50)}, syntax.NewCache(64 << 20)},
		{"none", Query{Pattern: "nothing($A)", Limit: intp(0), Format: "text"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			want, err := Search(ctx, snap, tt.query, workspace.UTF16, nil, tt.cache)
			if err != nil {
				t.Fatal(err)
			}
			var batches []Batch
			got, err := SearchStream(ctx, snap, tt.query, workspace.UTF16, nil, tt.cache, func(b Batch) error {
				batches = append(batches, b)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Matches) != 0 {
				t.Errorf("the final result of a stream holds %d matches; want none (they were streamed)", len(got.Matches))
			}
			text := ""
			for _, b := range batches {
				got.Matches = append(got.Matches, b.Matches...)
				text += b.Text
			}
			got.Text = text + got.Text
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("stream + final result differ from Search (-search +stream):\n%s", diff)
			}
			if tt.name == "all" && (len(want.Matches) != 152*1+150*2 || want.Matches[0].Path != "a.go" || want.Matches[1].Path != "a/x.go") {
				t.Errorf("%d matches, first in %s, %s; want 452, a.go then a/x.go (sorted by path)", len(want.Matches),
					want.Matches[0].Path, want.Matches[1].Path)
			}
		})
	}
}

// TestSearchStreamStopsOnEmitError: an emit that fails (the client has
// gone) ends the search with its error, at once.
func TestSearchStreamStopsOnEmitError(t *testing.T) {
	dir := streamTree(t)
	folder, err := workspace.NewFolder(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	gone := errors.New("client gone")
	calls := 0
	_, err = SearchStream(context.Background(), snap, Query{Pattern: "f($A)", Limit: intp(0)}, workspace.UTF16, nil, nil,
		func(Batch) error { calls++; return gone })
	if !errors.Is(err, gone) || calls != 1 {
		t.Errorf("error %v after %d emits; want the emit's error after 1", err, calls)
	}
}

// TestInOrderBoundsPending: inOrder delivers every item in order, and its
// workers never hold more than orderWindow undelivered results, however
// slow delivery is — the bound that keeps a streamed search's memory flat.
func TestInOrderBoundsPending(t *testing.T) {
	const n = 2000
	var pending, most atomic.Int64
	next := 0
	err := inOrder(context.Background(), n, func() func(int) int {
		return func(i int) int {
			p := pending.Add(1)
			for m := most.Load(); p > m && !most.CompareAndSwap(m, p); m = most.Load() {
			}
			return i
		}
	}, func(i, r int) error {
		pending.Add(-1)
		if i != next || r != i {
			return fmt.Errorf("delivered item %d (result %d); want %d", i, r, next)
		}
		next++
		if i%97 == 0 {
			time.Sleep(time.Millisecond) // a slow client: the workers must wait, not pile up
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Pending counts the result being delivered too: orderWindow wait, one is taken.
	if next != n || most.Load() > orderWindow+1 {
		t.Errorf("%d of %d delivered; at most %d results pending; want all, at most %d", next, n, most.Load(), orderWindow+1)
	}
}

// TestInOrderCancelled: a cancelled context ends inOrder with its error,
// without waiting for the remaining work.
func TestInOrderCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var worked atomic.Int64
	done := make(chan error, 1)
	go func() {
		done <- inOrder(ctx, 1_000_000, func() func(int) int {
			return func(i int) int {
				if worked.Add(1) == 100 {
					cancel()
				}
				return i
			}
		}, func(int, int) error { return nil }, nil)
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || worked.Load() > 1000 {
			t.Errorf("error %v after %d items worked on; want context.Canceled soon after the 100th", err, worked.Load())
		}
	case <-time.After(time.Minute):
		t.Fatal("inOrder did not return after its context was cancelled")
	}
}
