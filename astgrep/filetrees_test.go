package astgrep

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// trustedTrees is a server's Trees whose clock runs an hour ahead, so the
// files a test has just written count as settled and their stamps are
// trusted (in real use only files unchanged for StampSlack are).
func trustedTrees() parsecache.Trees {
	files := parsecache.NewFileTrees()
	files.Now = func() time.Time { return time.Now().Add(time.Hour) }
	return parsecache.Trees{Cache: syntax.NewCache(64 << 20), Files: files}
}

// settledFile is the one file of the tests below: a.go, one call of f.
const settledFile = "-- a.go --\npackage p\n\nfunc _() { f(1) }\n"

// TestFileTreesServeNoChangedFile: a file on disk whose tree was cached
// with its stamp is served from the cache, unread, while it is unchanged;
// any change a stamp shows — a rewrite of the same size with the old mtime
// put back, a save by rename keeping size and mtime, growth, deletion —
// gives the new text, and so does a change the stamp cannot show (made
// here by recording the new stamp for the old text) once the server
// forgets the file, as it does on a watched-file event or a save.
func TestFileTreesServeNoChangedFile(t *testing.T) {
	goLang, err := lang.Lookup("go")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, env *fileTreesEnv)
		want   string // the text of the one match, "" for none
		served bool   // the second query took the tree without reading the file
	}{
		{"unchanged", func(*testing.T, *fileTreesEnv) {}, "f(1)", true},
		{"rewritten, same size, old mtime put back", func(t *testing.T, env *fileTreesEnv) {
			env.rewriteKeepingTimes(t, "package p\n\nfunc _() { f(2) }\n")
		}, "f(2)", false},
		{"saved by rename, same size and mtime", func(t *testing.T, env *fileTreesEnv) {
			tmp := filepath.Join(env.dir, ".a.go.tmp")
			writeWithTimes(t, tmp, "package p\n\nfunc _() { f(3) }\n", env.before.ModTime())
			if err := os.Rename(tmp, env.path); err != nil {
				t.Fatal(err)
			}
		}, "f(3)", false},
		{"grown", func(t *testing.T, env *fileTreesEnv) {
			writeWithTimes(t, env.path, "package p\n\nfunc _() { f(44) }\n", env.before.ModTime())
		}, "f(44)", false},
		{"deleted", func(t *testing.T, env *fileTreesEnv) {
			if err := os.Remove(env.path); err != nil {
				t.Fatal(err)
			}
		}, "", false},
		{"a change the stamp cannot show, not reported", func(t *testing.T, env *fileTreesEnv) {
			env.hideChange(t, goLang, "package p\n\nfunc _() { f(5) }\n")
		}, "f(1)", true}, // what a stale stamp would serve: the reason for Forget
		{"a change the stamp cannot show, reported", func(t *testing.T, env *fileTreesEnv) {
			env.hideChange(t, goLang, "package p\n\nfunc _() { f(6) }\n")
			env.trees.Files.Forget(env.file.Path())
		}, "f(6)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newFileTreesEnv(t)
			if got := env.match(t); got != "f(1)" {
				t.Fatalf("first query found %q; want f(1)", got)
			}
			tc.change(t, env)
			servedBefore := env.trees.Files.Served()
			if got := env.match(t); got != tc.want {
				t.Errorf("after the change the query found %q; want %q", got, tc.want)
			}
			if served := env.trees.Files.Served() > servedBefore; served != tc.served {
				t.Errorf("the tree was served unread: %v; want %v", served, tc.served)
			}
		})
	}
}

// fileTreesEnv is one workspace of settledFile, searched with trustedTrees.
type fileTreesEnv struct {
	dir, path string
	snap      *workspace.Snapshot
	file      workspace.File // a.go, as the walk finds it
	trees     parsecache.Trees
	before    os.FileInfo // a.go as first written
}

func newFileTreesEnv(t *testing.T) *fileTreesEnv {
	env := &fileTreesEnv{dir: testutil.WriteTree(t, settledFile), trees: trustedTrees()}
	env.path = filepath.Join(env.dir, "a.go")
	folder, err := workspace.NewFolder(env.dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	env.snap = workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	resolved, err := env.snap.ResolvePaths(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	files, err := env.snap.Walk(context.Background(), resolved.Targets, workspace.WalkOptions{})
	if err != nil || len(files) != 1 {
		t.Fatalf("walk = %v, %v; want a.go", files, err)
	}
	env.file = files[0]
	if env.before, err = os.Stat(env.path); err != nil {
		t.Fatal(err)
	}
	return env
}

// match runs f($A) over the workspace and returns the one match's text.
func (env *fileTreesEnv) match(t *testing.T) string {
	t.Helper()
	res, err := Search(context.Background(), engine.Env{Snapshot: env.snap, Encoding: workspace.UTF8, Trees: env.trees}, Query{Pattern: "f($A)", Limit: intp(0)})
	if err != nil {
		t.Fatal(err)
	}
	switch len(res.Matches) {
	case 0:
		return ""
	case 1:
		return res.Matches[0].Text
	}
	t.Fatalf("%d matches; want at most 1", len(res.Matches))
	return ""
}

// rewriteKeepingTimes writes text (of the same size) over a.go and puts its
// first mtime back, until its ctime shows the change (a change within one
// clock tick of the first write shows nowhere: what StampSlack is for).
func (env *fileTreesEnv) rewriteKeepingTimes(t *testing.T, text string) {
	t.Helper()
	before := statOf(t, env.path)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		writeWithTimes(t, env.path, text, env.before.ModTime())
		now := statOf(t, env.path)
		if now.Ctim != before.Ctim {
			if now.Size != before.Size || now.Mtim != before.Mtim || now.Ino != before.Ino {
				t.Fatalf("the rewrite changed more than the ctime: %+v, was %+v", now, before)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the ctime of a.go did not change in 10 s")
		}
	}
}

// hideChange writes text over a.go, then records its new stamp for the old
// text: what a change the stamp cannot show (a write in the same clock
// tick, a clock set back) leaves behind.
func (env *fileTreesEnv) hideChange(t *testing.T, goLang *lang.Language, text string) {
	t.Helper()
	old, err := os.ReadFile(env.path)
	if err != nil {
		t.Fatal(err)
	}
	writeWithTimes(t, env.path, text, env.before.ModTime())
	env.trees.Files.Remember(env.file, stampOf(t, env.snap, env.file), goLang.Grammar(), old, env.trees.Cache)
}

func stampOf(t *testing.T, snap *workspace.Snapshot, f workspace.File) workspace.FileStamp {
	t.Helper()
	stamp, err := snap.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	return stamp
}

// statOf is the stat of the file at path, as the system reports it.
func statOf(t *testing.T, path string) *syscall.Stat_t {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Sys().(*syscall.Stat_t)
}

// writeWithTimes writes text to path and sets its atime and mtime to mtime.
func writeWithTimes(t *testing.T, path, text string, mtime time.Time) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// TestBackgroundQueryCachesWhatFits: while a background run fills the
// cache, a query caches the trees of the files on disk it parses while they
// fit, pushing out none, so the next query parses nothing; in a cache too
// small for them all it caches what fits and parses the rest as far as its
// pattern needs. Every query answers as one with no background run.
func TestBackgroundQueryCachesWhatFits(t *testing.T) {
	dir := streamTree(t)
	folder, err := workspace.NewFolder(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	q := Query{Pattern: "f($A)", Limit: intp(0)}
	search := func(cache *syntax.Cache, background bool) *Result {
		t.Helper()
		res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16, Trees: parsecache.Trees{Cache: cache, Background: background}}, q)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	want := search(syntax.NewCache(64<<20), false)
	if want.MatchCount != 452 {
		t.Fatalf("%d matches; want 452", want.MatchCount)
	}
	for _, tc := range []struct {
		name   string
		budget int64
		trees  func(int) bool
	}{
		{"room for every tree", 64 << 20, func(n int) bool { return n == 152 }},
		{"room for some", 64 << 10, func(n int) bool { return n > 0 && n < 152 }},
	} {
		cache := syntax.NewCache(tc.budget)
		for pass := range 2 {
			parses := cache.Parses()
			res := search(cache, true)
			if diff := cmp.Diff(want, res); diff != "" {
				t.Errorf("%s, pass %d: the result differs from the one with no background run (-want +got):\n%s", tc.name, pass+1, diff)
			}
			st := cache.Stats()
			parsed := cache.Parses() - parses
			switch {
			case !tc.trees(st.Trees) || st.Bytes > tc.budget:
				t.Errorf("%s, pass %d: %d trees cached, %d bytes of a budget of %d", tc.name, pass+1, st.Trees, st.Bytes, tc.budget)
			case pass == 1 && parsed != int64(152-st.Trees):
				t.Errorf("%s, pass 2: %d files parsed; want the %d not cached", tc.name, parsed, 152-st.Trees)
			}
		}
	}
}

// TestFilledTreesServeNoChangedFile: a file a query parsed only to fill
// the cache during background parsing (its pattern could not match it) is served
// unread to the next query while unchanged, and never once changed: a
// rewrite of the same size with the old mtime put back gives the new text.
func TestFilledTreesServeNoChangedFile(t *testing.T) {
	env := newFileTreesEnv(t)
	env.trees.Background = true
	search := func(pattern string) []string {
		t.Helper()
		res, err := Search(context.Background(), engine.Env{Snapshot: env.snap, Encoding: workspace.UTF8, Trees: env.trees}, Query{Pattern: pattern, Limit: intp(0)})
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, m := range res.Matches {
			texts = append(texts, m.Text)
		}
		return texts
	}
	if got := search("g($A)"); len(got) != 0 || env.trees.Cache.Stats().Trees != 1 {
		t.Fatalf("g($A) found %q, %d trees cached; want nothing found and a.go cached", got, env.trees.Cache.Stats().Trees)
	}
	served, parses := env.trees.Files.Served(), env.trees.Cache.Parses()
	if got := search("f($A)"); len(got) != 1 || got[0] != "f(1)" {
		t.Fatalf("f($A) found %q; want f(1)", got)
	}
	if env.trees.Files.Served() != served+1 || env.trees.Cache.Parses() != parses {
		t.Error("the filled tree was not served unread")
	}
	env.rewriteKeepingTimes(t, "package p\n\nfunc _() { g(2) }\n")
	served = env.trees.Files.Served()
	if got := search("g($A)"); len(got) != 1 || got[0] != "g(2)" {
		t.Errorf("after a rewrite of the same size with the old mtime put back, g($A) found %q; want g(2)", got)
	}
	if env.trees.Files.Served() != served {
		t.Error("the changed file's old tree was served")
	}
}

// TestFileTreesKeepTheLanguage: a file named in paths may be searched as
// any language; its tree cached as one is never served for another.
func TestFileTreesKeepTheLanguage(t *testing.T) {
	dir := testutil.WriteTree(t, "-- code.txt --\nf(1)\ng(2)\n")
	folder, err := workspace.NewFolder(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	trees := trustedTrees()
	for i, language := range []string{"javascript", "python", "python"} {
		res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF8, Trees: trees}, Query{Pattern: "f($A)", Lang: language, Scope: workspace.Scope{Paths: []string{"code.txt"}}, Limit: intp(0)})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) != 1 || res.Matches[0].Language != language || res.Matches[0].Text != "f(1)" {
			t.Errorf("query %d, as %s: %+v; want f(1) found as %s", i, language, res.Matches, language)
		}
	}
	if served := trees.Files.Served(); served != 1 {
		t.Errorf("%d trees served unread; want 1 (the last query's, in the language of the one before)", served)
	}
}
