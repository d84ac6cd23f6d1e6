package astgrep

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// nestedJS is a JavaScript file of arrays nested depth deep: every node
// matches `$A`, and the text of the matches adds up to about depth² bytes.
func nestedJS(depth int) string {
	return "x = " + strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth) + ";\n"
}

// TestSearchLimitBoundsMemory: `$A` with limit 1 over a deeply nested file
// builds one match, not all of them, so what it allocates stays far below
// what the matches' texts alone would take (measured with
// runtime.ReadMemStats around the call), and matchCount still counts every
// match.
func TestSearchLimitBoundsMemory(t *testing.T) {
	const depth = 4000
	dir := testutil.WriteTree(t, "")
	if err := os.WriteFile(filepath.Join(dir, "deep.js"), []byte(nestedJS(depth)), 0o644); err != nil {
		t.Fatal(err)
	}
	// Every named node of the file, as a full parse counts them, is a match of $A.
	l, _ := lang.Lookup("javascript")
	tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte(nestedJS(depth)))
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for i := range tree.Nodes {
		if tree.Nodes[i].IsNamed() {
			named++
		}
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := search(t, dir, Query{Pattern: "$A", Lang: "javascript", Limit: intp(1)})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d matches; %d KiB allocated", res.MatchCount, allocated>>10)
	if len(res.Matches) != 1 || res.Matches[0].ByteRange.Start != 0 || res.MatchCount != named || !res.LimitReached {
		t.Errorf("%d matches (first at %+v), matchCount %d, limitReached %v; want 1 (the program), %d, true",
			len(res.Matches), res.Matches[0].ByteRange, res.MatchCount, res.LimitReached, named)
	}
	// The matches' texts alone take depth² bytes; the page is one match.
	if bound := uint64(depth * depth / 2); allocated > bound {
		t.Errorf("the search allocated %d KiB; want at most %d KiB (only the page is built)", allocated>>10, bound>>10)
	}
}

// TestSearchSeesDeepCode: code nested far deeper than the 4,095 levels the
// flat tree used to stop at is searched like any other — the innermost
// literal is found, and a repeated metavariable compares two deep subtrees.
func TestSearchSeesDeepCode(t *testing.T) {
	const depth = 20000
	deep := strings.Repeat("[", depth) + "42" + strings.Repeat("]", depth)
	dir := testutil.WriteTree(t, "")
	if err := os.WriteFile(filepath.Join(dir, "deep.js"), []byte("x = "+deep+";\nf("+deep+", "+deep+");\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		pattern string
		matches int
	}{
		{"42", 3},
		{"f($A, $A)", 1},
	} {
		res, err := search(t, dir, Query{Pattern: tt.pattern, Lang: "javascript", Limit: intp(1)})
		if err != nil {
			t.Fatal(err)
		}
		if res.MatchCount != tt.matches {
			t.Errorf("%s: %d matches; want %d", tt.pattern, res.MatchCount, tt.matches)
		}
	}
}

// TestSearchReleasesWorkerArenas: the workers of a query parse into
// scratches that keep up to 64 MiB of arena from file to file, and give
// it all back when the query ends, whichever pass parsed: the process's
// arenas hold no more after the query than before it, but for the pooled
// scratches that compile patterns (a server must not carry a query's
// arenas into the next, nor wait for the collector).
func TestSearchReleasesWorkerArenas(t *testing.T) {
	// 300 KB of calls: a parse takes tens of MB, more than an arena's first chunk.
	big := "package p\n\nfunc g() {\n" + strings.Repeat("\tf(1, 2)\n\tx := []int{1, 2, 3}\n", 12000) + "}\n"
	dir := testutil.WriteTree(t, "-- small.go --\npackage p\n\nfunc h() { f(3, 4) }\n")
	if err := os.WriteFile(filepath.Join(dir, "big.go"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := dirSnapshot(t, dir)
	for _, tc := range []struct {
		name  string
		limit int // 0: the first pass builds the matches; else a second pass builds the page
		trees parsecache.Trees
	}{
		{"no cache (the CLI)", 0, parsecache.Trees{}},
		{"no cache, a page", 1, parsecache.Trees{}},
		{"a background run fills the cache (a fresh server)", 0, parsecache.Trees{Cache: syntax.NewCache(1 << 30), Background: true}},
	} {
		before := syntax.ArenaBytes()
		res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16, Trees: tc.trees}, Query{Pattern: "f($A, $B)", Lang: "go", Limit: intp(tc.limit)})
		if err != nil {
			t.Fatal(err)
		}
		if res.MatchCount != 12001 {
			t.Fatalf("%s: %d matches; want 12001", tc.name, res.MatchCount)
		}
		// A worker keeping its arena would hold the 32 MiB chunk of big.go's
		// parse; the pooled scratches that compile patterns keep 4 MiB each.
		if after := syntax.ArenaBytes(); after-before >= 16<<20 {
			t.Errorf("%s: the process's arenas hold %d bytes after the query, %d before", tc.name, after, before)
		}
	}
}

// TestLargeReadBufferNotKept: a worker reads file after file into one
// buffer, but does not keep one grown for a large file: the buffer it
// gets back for the next file is the small one it had.
func TestLargeReadBufferNotKept(t *testing.T) {
	dir := testutil.WriteTree(t, "-- small.go --\npackage p\n\nfunc h() { f(3) }\n")
	large := "package p\n\nfunc g() {\n" + strings.Repeat("\tf(1)\n", parsecache.MaxKeptReadBuffer/5) + "}\n"
	if err := os.WriteFile(filepath.Join(dir, "large.go"), []byte(large), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := dirSnapshot(t, dir)
	resolved, err := snap.ResolvePaths(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]workspace.File{}
	if err := snap.WalkFunc(context.Background(), resolved.Targets, workspace.WalkOptions{}, func(f workspace.File) { files[f.Rel] = f }); err != nil {
		t.Fatal(err)
	}
	goLang, _ := lang.Lookup("go")
	s := &searcher{patterns: matcher.NewPatternSet("f($A)", matcher.Options{})}
	p, err := s.patterns.Get(context.Background(), goLang)
	if err != nil {
		t.Fatal(err)
	}
	w := &worker{buf: make([]byte, 0, 4096), scratch: new(syntax.Scratch)}
	defer w.scratch.Release()
	for _, name := range []string{"small.go", "large.go"} {
		tree, _ := s.tree(context.Background(), snap, files[name], false, p, goLang, w)
		if tree == nil {
			t.Fatalf("%s was not parsed", name)
		}
		if cap(w.buf) > parsecache.MaxKeptReadBuffer {
			t.Errorf("after %s the worker keeps a read buffer of %d bytes; want at most %d", name, cap(w.buf), parsecache.MaxKeptReadBuffer)
		}
	}
}
