package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
)

const tree = `
-- .gitignore --
*.log
build/
!keep.log
-- .ignore --
secret.txt
-- a.go --
package a
-- a.log --
ignored
-- keep.log --
kept by negation
-- secret.txt --
ignored by .ignore
-- .hidden/h.go --
package h
-- build/out.go --
package out
-- node_modules/m/index.js --
x
-- src/b.go --
package b
-- src/b_test.go --
package b
-- src/.gitignore --
gen.go
-- src/gen.go --
package b
-- src/deep/c.ts --
let c
-- bin.dat --
`

func newTestSnapshot(t *testing.T, archive string, settings Settings) (*Snapshot, string) {
	t.Helper()
	dir := testutil.WriteTree(t, archive)
	if err := os.WriteFile(filepath.Join(dir, "bin.dat"), []byte("ab\x00cd"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := NewFolder(PathToURI(dir), "")
	if err != nil {
		t.Fatal(err)
	}
	return NewSnapshot([]Folder{f}, settings, nil), dir
}

func relPaths(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Rel)
	}
	return out
}

func TestWalk(t *testing.T) {
	snap, _ := newTestSnapshot(t, tree, Settings{Exclude: []string{"**/*.ts"}})
	tests := []struct {
		name  string
		paths []string
		opts  WalkOptions
		want  []string
	}{
		{"defaults: ignore files, hidden included, node_modules skipped", nil, WalkOptions{Gitignore: true, Hidden: true},
			[]string{".gitignore", ".hidden/h.go", ".ignore", "a.go", "bin.dat", "keep.log", "src/.gitignore", "src/b.go", "src/b_test.go"}},
		{"no hidden", nil, WalkOptions{Gitignore: true},
			[]string{"a.go", "bin.dat", "keep.log", "src/b.go", "src/b_test.go"}},
		{"gitignore off", nil, WalkOptions{Hidden: false},
			[]string{"a.go", "a.log", "bin.dat", "build/out.go", "keep.log", "secret.txt", "src/b.go", "src/b_test.go", "src/gen.go"}},
		{"glob in path: direct children only", []string{"*.go"}, WalkOptions{Gitignore: true, Hidden: true}, []string{"a.go"}},
		{"recursive glob", []string{"**/*.go"}, WalkOptions{Gitignore: true, Hidden: true},
			[]string{".hidden/h.go", "a.go", "src/b.go", "src/b_test.go"}},
		{"subdirectory keeps the parent's ignore files", []string{"src"}, WalkOptions{Gitignore: true, Hidden: true},
			[]string{"src/.gitignore", "src/b.go", "src/b_test.go"}},
		{"globs filter: include and exclude", nil, WalkOptions{Gitignore: true, Hidden: true, Globs: []string{"*.go", "!*_test.go"}},
			[]string{".hidden/h.go", "a.go", "src/b.go"}},
		{"explicit file is searched even if ignored", []string{"a.log"}, WalkOptions{Gitignore: true, Hidden: true}, []string{"a.log"}},
		{"node_modules when named", []string{"node_modules"}, WalkOptions{Gitignore: true, Hidden: true}, []string{"node_modules/m/index.js"}},
		{"several paths", []string{"src/b.go", "a.go", "src/b.go"}, WalkOptions{Gitignore: true}, []string{"a.go", "src/b.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := snap.ResolvePaths(tt.paths, false)
			targets := r.Targets
			if err != nil {
				t.Fatal(err)
			}
			files, err := snap.Walk(context.Background(), targets, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, relPaths(files)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	snap, _ := newTestSnapshot(t, tree, Settings{MaxFileSize: 12})
	files, err := snap.Walk(context.Background(), []Target{{Folder: 0, Base: snap.Folders[0].Real, IsDir: true}}, WalkOptions{Gitignore: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range files {
		content, err := snap.ReadFile(f, nil)
		switch {
		case errors.Is(err, ErrBinary):
			got[f.Rel] = "binary"
		case errors.Is(err, ErrTooLarge):
			got[f.Rel] = "too large"
		case err != nil:
			got[f.Rel] = err.Error()
		default:
			got[f.Rel] = string(content)
		}
	}
	want := map[string]string{"a.go": "package a\n", "bin.dat": "binary", "keep.log": "too large", "src/b.go": "package b\n", "src/b_test.go": "package b\n", "src/deep/c.ts": "let c\n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestResolvePathsConfinement(t *testing.T) {
	outside := testutil.WriteTree(t, "-- secret.txt --\nTOP SECRET\n")
	snap, dir := newTestSnapshot(t, tree, Settings{})
	if err := os.Symlink(outside, filepath.Join(dir, "link-dir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link-file")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "src"), filepath.Join(dir, "inner-link")); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(dir, outside)
	refused := map[string]string{
		"absolute path outside":    filepath.Join(outside, "secret.txt"),
		"dot-dot":                  rel + "/secret.txt",
		"dot-dot inside then out":  "src/../../" + filepath.Base(outside),
		"glob after dot-dot":       "../*",
		"file URI outside":         PathToURI(outside),
		"symlinked dir out":        "link-dir",
		"symlinked file out":       "link-file",
		"through a symlinked dir":  "link-dir/secret.txt",
		"glob below a symlink out": "link-dir/**/*.txt",
		"other scheme":             "http://example.com/x",
	}
	for name, p := range refused {
		t.Run(name, func(t *testing.T) {
			_, err := snap.ResolvePaths([]string{p}, true)
			var pe *PathError
			if !errors.As(err, &pe) {
				t.Fatalf("ResolvePaths(%q) = %v; want a PathError", p, err)
			}
		})
	}
	t.Run("inside symlink and absolute path inside are fine", func(t *testing.T) {
		r, err := snap.ResolvePaths([]string{"inner-link", filepath.Join(dir, "a.go"), PathToURI(filepath.Join(dir, "src"))}, false)
		targets := r.Targets
		if err != nil {
			t.Fatal(err)
		}
		if len(targets) != 3 || targets[0].Base != filepath.Join(dir, "src") {
			t.Fatalf("targets = %+v", targets)
		}
	})
	t.Run("a whole-workspace walk never follows symlinks", func(t *testing.T) {
		files, err := snap.Walk(context.Background(), []Target{{Base: dir, IsDir: true}}, WalkOptions{Hidden: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.Contains(f.Rel, "link") || !strings.HasPrefix(f.Abs, dir) {
				t.Errorf("walked %s", f.Abs)
			}
		}
	})
}

// TestFolderWithGlobCharacters: glob characters in the folder's own path are
// not globs.
func TestFolderWithGlobCharacters(t *testing.T) {
	dir := filepath.Join(testutil.WriteTree(t, ""), "w{1}[x]*$(y)")
	testutil.WriteFiles(t, dir, "-- a.go --\npackage a\n-- sub/b.go --\npackage b\n")
	f, err := NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	snap := NewSnapshot([]Folder{f}, Settings{}, nil)
	for _, p := range []string{"a.go", filepath.Join(dir, "a.go"), "**/*.go", PathToURI(filepath.Join(dir, "sub"))} {
		r, err := snap.ResolvePaths([]string{p}, false)
		targets := r.Targets
		if err != nil {
			t.Fatalf("ResolvePaths(%q): %v", p, err)
		}
		files, err := snap.Walk(context.Background(), targets, WalkOptions{})
		if err != nil || len(files) == 0 {
			t.Errorf("%q: %d files, %v", p, len(files), err)
		}
	}
}

func TestResolvePathsErrorsAndLines(t *testing.T) {
	snap, _ := newTestSnapshot(t, tree, Settings{})
	r, err := snap.ResolvePaths([]string{"a.go:2-3,7+2", "nope.go"}, true)
	targets, missing := r.Targets, r.Missing
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]LineSel{{2, 3}, {7, 9}}, targets[0].Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"nope.go"}, missing); diff != "" {
		t.Errorf("missing (-want +got):\n%s", diff)
	}
	for _, bad := range [][]string{{"nope.go", "gone/"}, {""}, {"src:1-2"}, {"*.go:1-2"}, {"a.go:0-2"}, {"a.go:5-2"}} {
		if _, err := snap.ResolvePaths(bad, true); err == nil {
			t.Errorf("ResolvePaths(%q): want an error", bad)
		}
	}
	if _, err := snap.ResolvePaths([]string{"a.go:1-2"}, false); err == nil {
		t.Error("line selector without allowLines: want an error")
	}
}

func TestOverlayChanges(t *testing.T) {
	o := NewOverlay()
	o.Open("file:///w/a.txt", "plaintext", 1, "héllo\r\nwörld")
	r := func(l1, c1, l2, c2 int) *Range { return &Range{Position{l1, c1}, Position{l2, c2}} }
	err := o.Change("file:///w/a.txt", 2, []TextChange{
		{Range: r(0, 1, 0, 2), Text: "e"},     // é → e (UTF-16 columns)
		{Range: r(1, 5, 1, 5), Text: "!"},     // append on line 1
		{Range: r(0, 5, 1, 0), Text: " "},     // join the lines
		{Range: r(5, 0, 5, 0), Text: "\nend"}, // past the end: append
	}, UTF16)
	if err != nil {
		t.Fatal(err)
	}
	doc := o.Get("file:///w/a.txt")
	if got, want := string(doc.Content), "hello wörld!\nend"; got != want || doc.Version != 2 || doc.Path != "/w/a.txt" {
		t.Fatalf("content %q version %d path %q; want %q version 2", got, doc.Version, doc.Path, want)
	}
	if err := o.Change("file:///w/none.txt", 2, nil, UTF16); err == nil {
		t.Error("change to a document that is not open: want an error")
	}
	if err := o.Change("file:///w/a.txt", 3, []TextChange{{Range: r(0, 5, 0, 1), Text: ""}}, UTF16); err == nil {
		t.Error("reversed range: want an error")
	}
	o.Close("file:///w/a.txt")
	if o.Get("file:///w/a.txt") != nil {
		t.Error("closed document still there")
	}
}

// TestWalkSkipsTempFiles: structls's own temporary files (what a killed
// apply leaves beside the files it rewrote) are never listed, hidden files
// included, nor when named.
func TestWalkSkipsTempFiles(t *testing.T) {
	snap, _ := newTestSnapshot(t, "-- a.go --\npackage p\n-- .a.go.structls-0123abcd --\npackage p\n-- src/.b.go.structls-99.old --\npackage p\n-- .plain --\nx\n", Settings{})
	for _, paths := range [][]string{nil, {".a.go.structls-0123abcd", "src/.b.go.structls-99.old"}} {
		r, err := snap.ResolvePaths(paths, false)
		if err != nil {
			t.Fatal(err)
		}
		files, err := snap.Walk(context.Background(), r.Targets, WalkOptions{Hidden: true})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{".plain", "a.go", "bin.dat"} // bin.dat: every test tree has it
		if paths != nil {
			want = nil
		}
		if diff := cmp.Diff(want, relPaths(files)); diff != "" {
			t.Errorf("paths %v: files (-want +got):\n%s", paths, diff)
		}
	}
}

// TestWalkInsideNodeModules: a workspace that is itself inside a
// node_modules directory still skips the node_modules below it (the check
// once looked at the target's absolute path, which names the parent one);
// a path below it that names one is still entered.
func TestWalkInsideNodeModules(t *testing.T) {
	parent := testutil.WriteTree(t, "-- node_modules/pkg/a.js --\n-- node_modules/pkg/node_modules/dep/x.js --\n")
	root := filepath.Join(parent, "node_modules", "pkg")
	snap, targets := folderTargets(t, root)
	files, err := snap.Walk(context.Background(), targets, WalkOptions{Gitignore: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := relPaths(files); !slices.Equal(got, []string{"a.js"}) {
		t.Errorf("files %v; want a.js alone", got)
	}
	r, err := snap.ResolvePaths([]string{"node_modules/dep"}, false)
	if err != nil {
		t.Fatal(err)
	}
	files, err = snap.Walk(context.Background(), r.Targets, WalkOptions{Gitignore: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := relPaths(files); !slices.Equal(got, []string{"node_modules/dep/x.js"}) {
		t.Errorf("files of the target node_modules/dep: %v; want its x.js", got)
	}
}

// TestWalkNamesTheDirectoriesItCannotList: a directory whose path is
// longer than the system takes, or that cannot be read, is skipped and
// named in SkippedDirs' warnings, as ripgrep prints them; one that
// vanishes during the walk is not (TestWalkSurvivesVanishingEntries).
func TestWalkNamesTheDirectoriesItCannotList(t *testing.T) {
	root := t.TempDir()
	// 1,500 levels of "ab/": 4,500 bytes, past PATH_MAX (4,096).
	testutil.DeepDir(t, root, "ab", 1500, 500)
	unreadable := os.Geteuid() != 0 // root reads every directory
	if unreadable {
		if err := os.Mkdir(filepath.Join(root, "locked"), 0o000); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(filepath.Join(root, "locked"), 0o755) })
	}
	snap, targets := folderTargets(t, root)
	var skipped SkippedDirs
	files, err := snap.Walk(context.Background(), targets, WalkOptions{Gitignore: true, Skipped: &skipped})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 { // f500.txt and f1000.txt: f1500.txt is 4,500 bytes deep
		t.Errorf("found %d files; want the 2 within reach", len(files))
	}
	warnings := skipped.Warnings()
	want := 1
	if unreadable {
		want = 2
	}
	if len(warnings) != want {
		t.Fatalf("warnings %q; want %d", warnings, want)
	}
	if w := warnings[0]; !strings.Contains(w, "skipped the directory ab/ab/") || !strings.Contains(w, "file name too long") || len(w) > 400 {
		t.Errorf("warning %q: want the directory, shortened, and why", w)
	}
	if unreadable && !strings.Contains(warnings[1], "locked: cannot list it: permission denied (give yourself read access") {
		t.Errorf("warning %q: want locked, permission denied, and what to do", warnings[1])
	}
}

// TestWalkNamesAFolderGone: a workspace folder moved or deleted since the
// session began is named in the warnings, not searched as if empty.
func TestWalkNamesAFolderGone(t *testing.T) {
	root := testutil.WriteTree(t, "-- a.go --\n")
	snap, targets := folderTargets(t, root)
	if err := os.Rename(root, root+".moved"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root + ".moved") })
	var skipped SkippedDirs
	files, err := snap.Walk(context.Background(), targets, WalkOptions{Skipped: &skipped})
	if err != nil || len(files) != 0 {
		t.Fatalf("walk: %v, %v", files, err)
	}
	if w := skipped.Warnings(); len(w) != 1 || !strings.Contains(w[0], "the workspace folder "+root+" cannot be opened") || !strings.Contains(w[0], "moved or deleted") {
		t.Errorf("warnings %q; want the folder named, and why it may be gone", w)
	}
}
