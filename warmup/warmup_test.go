package warmup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lang"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// project has five files a query would parse, and three it would not: an
// ignored one, one in node_modules, and one in no language of the catalogue.
const project = `
-- .gitignore --
gen/
-- a.go --
package a

func A() { if err != nil { return } }
-- b/b.go --
package b
-- b/c.py --
def c(): pass
-- d.rs --
fn main() {}
-- e.ts --
let e = 1;
-- gen/skip.go --
package gen
-- node_modules/m/index.js --
module.exports = 1;
-- notes.txt --
text
`

func snapshotOf(t *testing.T, dir string) *workspace.Snapshot {
	t.Helper()
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
}

// parseAll parses every file a query would, through the cache, and returns
// how many the cache had to parse.
func parseAll(t *testing.T, dir string, cache *syntax.Cache) int64 {
	t.Helper()
	before := cache.Parses()
	for _, rel := range []string{"a.go", "b/b.go", "b/c.py", "d.rs", "e.ts"} {
		content, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cache.Parse(context.Background(), lang.ForPath(rel).Grammar(), content); err != nil {
			t.Fatal(err)
		}
	}
	return cache.Parses() - before
}

func TestRunWarmsTheCache(t *testing.T) {
	dir := testutil.WriteTree(t, project)
	cache := syntax.NewCache(64 << 20)
	var begun, reported int
	res, err := Run(context.Background(), snapshotOf(t, dir), parsecache.Trees{Cache: cache}, Options{
		Begin:    func(files int) { begun = files },
		Progress: func(done, total int) { reported = done },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res != (Result{Files: 5, Done: 5}) || begun != 5 || reported != 5 {
		t.Fatalf("result %+v, Begin(%d), last progress %d; want 5 files parsed", res, begun, reported)
	}
	if n := cache.Parses(); n != 5 {
		t.Errorf("the run parsed %d trees; want 5 (not the ignored, node_modules or text files)", n)
	}
	if n := parseAll(t, dir, cache); n != 0 {
		t.Errorf("after the run, a query parsed %d files; want 0", n)
	}
	// A second run finds everything cached and parses nothing.
	if _, err := Run(context.Background(), snapshotOf(t, dir), parsecache.Trees{Cache: cache}, Options{}); err != nil || cache.Parses() != 5 {
		t.Errorf("a second run: %v, %d parses in all; want 5", err, cache.Parses())
	}
}

// TestRunStopsWhenTheCacheIsFull: eight files of one size, a cache with
// room for five and a half of their trees: five are cached, then the run
// stops.
func TestRunStopsWhenTheCacheIsFull(t *testing.T) {
	var archive strings.Builder
	for i := range 8 {
		fmt.Fprintf(&archive, "-- f%d.go --\npackage f\n\nvar v%d = %d\n", i, i, i)
	}
	dir := testutil.WriteTree(t, archive.String())
	src := []byte("package f\n\nvar v0 = 0\n")
	tree, err := syntax.Parse(context.Background(), lang.ForPath("f.go").Grammar(), src)
	if err != nil {
		t.Fatal(err)
	}
	cost := int64(len(src)) + int64(len(tree.Nodes))*int64(unsafe.Sizeof(syntax.Node{}))
	cache := syntax.NewCache(5*cost + cost/2) // a tree may take a quarter at most
	res, err := Run(context.Background(), snapshotOf(t, dir), parsecache.Trees{Cache: cache}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res != (Result{Files: 8, Done: 5, Full: true}) {
		t.Fatalf("result %+v; want 5 of 8 files cached, then a full stop", res)
	}
	if err := cache.Warm(context.Background(), lang.ForPath("x.go").Grammar(), []byte("package x\n\nvar v9 = 9\n")); !errors.Is(err, syntax.ErrCacheFull) {
		t.Errorf("Warm on a full cache: %v; want ErrCacheFull", err)
	}
}

// TestRunParsesOnlyChangedFiles: with Paths, only those files are parsed,
// and only if a walk would find them (not in node_modules).
func TestRunParsesOnlyChangedFiles(t *testing.T) {
	dir := testutil.WriteTree(t, project)
	cache := syntax.NewCache(64 << 20)
	paths := []string{filepath.Join(dir, "b", "c.py"), filepath.Join(dir, "node_modules", "m", "index.js"), filepath.Join(dir, "gone.go")}
	res, err := Run(context.Background(), snapshotOf(t, dir), parsecache.Trees{Cache: cache}, Options{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	if res != (Result{Files: 1, Done: 1}) {
		t.Fatalf("result %+v; want only b/c.py parsed", res)
	}
}

// TestRunWaitsWhileARequestRuns: nothing is walked or parsed while the gate
// is busy, and everything once it is free again.
func TestRunWaitsWhileARequestRuns(t *testing.T) {
	dir := testutil.WriteTree(t, project)
	cache := syntax.NewCache(64 << 20)
	var gate Gate
	done := gate.Busy()
	begun := make(chan struct{})
	finished := make(chan Result, 1)
	go func() {
		res, _ := Run(context.Background(), snapshotOf(t, dir), parsecache.Trees{Cache: cache}, Options{Gate: &gate, Begin: func(int) { close(begun) }})
		finished <- res
	}()
	select {
	case <-begun:
		t.Fatal("the files were walked while a request was running")
	case <-time.After(50 * time.Millisecond): // room for a walk or parse that should not happen
	}
	if n := cache.Parses(); n != 0 {
		t.Fatalf("%d files parsed while a request was running; want 0", n)
	}
	done()
	<-begun
	select {
	case res := <-finished:
		if res.Done != 5 {
			t.Fatalf("result %+v after the request ended; want 5 files parsed", res)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the run did not go on after the request ended")
	}
}

// TestBusyInterruptsTheFileInProgress: a request starting cancels the
// context of the file being parsed, and the next Wait blocks until it ends.
func TestBusyInterruptsTheFileInProgress(t *testing.T) {
	var gate Gate
	fileCtx, release, err := gate.Wait(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	done := gate.Busy()
	if fileCtx.Err() == nil {
		t.Fatal("the file's context was not cancelled when a request started")
	}
	release()
	waited := make(chan struct{})
	go func() {
		_, release, _ := gate.Wait(context.Background(), true)
		release()
		close(waited)
	}()
	select {
	case <-waited:
		t.Fatal("Wait returned while a request was running")
	case <-time.After(20 * time.Millisecond):
	}
	done()
	done() // a second call is harmless
	<-waited
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := gate.Wait(ctx, true); err == nil {
		t.Error("Wait with an ended context returned no error")
	}
}

// TestRunCancelled: a cancelled run stops with the context's error.
func TestRunCancelled(t *testing.T) {
	dir := testutil.WriteTree(t, project)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, snapshotOf(t, dir), parsecache.Trees{Cache: syntax.NewCache(64 << 20)}, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v; want context.Canceled", err)
	}
}

// TestInterruptedOnce: work a request interrupts runs again once the
// request has ended, and then is not interrupted: requests at every cursor
// move cannot keep a file from being parsed.
func TestInterruptedOnce(t *testing.T) {
	var gate Gate
	var runs []bool // whether each run's context ended
	err := whenIdle(context.Background(), &gate, func(ctx context.Context) error {
		done := gate.Busy() // a request starts during the work, and ends
		done()
		runs = append(runs, ctx.Err() != nil)
		return ctx.Err()
	})
	if err != nil || len(runs) != 2 || !runs[0] || runs[1] {
		t.Fatalf("runs %v, err %v; want an interrupted run, then one to the end", runs, err)
	}
}

// TestRunPassesOverWhatQueriesCached: the files whose trees a query cached
// while background parsing had not finished are passed over unread, unless they
// changed since; the others are parsed.
func TestRunPassesOverWhatQueriesCached(t *testing.T) {
	dir := testutil.WriteTree(t, project)
	files := parsecache.NewFileTrees()
	files.Now = func() time.Time { return time.Now().Add(time.Hour) } // stamps of files just written are trusted
	trees := parsecache.Trees{Cache: syntax.NewCache(64 << 20), Files: files, Background: true}
	snap := snapshotOf(t, dir)
	limit := 0
	res, err := astgrep.Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16, Trees: trees}, astgrep.Query{Pattern: "package $P", Lang: "go", Limit: &limit})
	if err != nil || res.MatchCount != 2 {
		t.Fatalf("query: %v, %d matches; want a.go's and b/b.go's", err, res.MatchCount)
	}
	if err := os.WriteFile(filepath.Join(dir, "b", "b.go"), []byte("package b // changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	parses := trees.Cache.Parses()
	run, err := Run(context.Background(), snap, trees, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if run != (Result{Files: 5, Done: 5, Known: 1}) {
		t.Errorf("result %+v; want 5 files done, a.go passed over unread (b/b.go changed)", run)
	}
	if n := trees.Cache.Parses() - parses; n != 4 {
		t.Errorf("the run parsed %d files; want 4 (all but a.go)", n)
	}
}
