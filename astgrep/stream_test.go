package astgrep

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
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
		trees parsecache.Trees
	}{
		{"all", Query{Pattern: "f($A)", Limit: intp(0)}, parsecache.Trees{}},
		{"all, text", Query{Pattern: "f($A)", Limit: intp(0), Format: "text"}, parsecache.Trees{}},
		{"page", Query{Pattern: "f($A)", Skip: 7, Limit: intp(100), Format: "text"}, parsecache.Trees{}},
		{"page, cached", Query{Pattern: "f($A)", Skip: 300, Limit: intp(50)}, parsecache.Trees{Cache: syntax.NewCache(64 << 20)}},
		{"page, cached and stamped", Query{Pattern: "f($A)", Skip: 300, Limit: intp(50)}, trustedTrees()},
		{"none", Query{Pattern: "nothing($A)", Limit: intp(0), Format: "text"}, parsecache.Trees{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			want, err := Search(ctx, engine.Env{Snapshot: snap, Encoding: workspace.UTF16, Trees: tt.trees}, tt.query)
			if err != nil {
				t.Fatal(err)
			}
			var batches []Batch
			got, err := SearchStream(ctx, engine.Env{Snapshot: snap, Encoding: workspace.UTF16, Trees: tt.trees}, tt.query, func(b Batch) error {
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
	_, err = SearchStream(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Pattern: "f($A)", Limit: intp(0)}, func(Batch) error { calls++; return gone })
	if !errors.Is(err, gone) || calls != 1 {
		t.Errorf("error %v after %d emits; want the emit's error after 1", err, calls)
	}
}
