package atomicwrite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

const threeFiles = `
-- a.go --
package p

var v = f(1)
-- b.go --
package p

var v = f(2)
-- c.go --
package p

var v = f(3)
`

// readTree returns the text of the named files in dir.
func readTree(t *testing.T, dir string, names ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = string(b)
	}
	return out
}

// previewThree previews f($A) → F($A) over threeFiles.
func previewThree(t *testing.T) (*rewrite.Plan, string, map[string]string) {
	t.Helper()
	plan, dir := preview(t, threeFiles, rewrite.Query{Ops: ops("f($A)", "F($A)")})
	return plan, dir, readTree(t, dir, "a.go", "b.go", "c.go")
}

func TestWriteFiles(t *testing.T) {
	plan, dir, _ := previewThree(t)
	if err := os.Chmod(filepath.Join(dir, "b.go"), 0o640); err != nil {
		t.Fatal(err)
	}
	asRoot := os.Geteuid() == 0
	if asRoot { // only root can give a file away: then the owner must be kept too
		if err := os.Chown(filepath.Join(dir, "c.go"), 4321, 4321); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFiles(context.Background(), plan, snapshotOf(t, dir, nil)); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, dir, "a.go", "b.go", "c.go")
	want := map[string]string{"a.go": "package p\n\nvar v = F(1)\n", "b.go": "package p\n\nvar v = F(2)\n", "c.go": "package p\n\nvar v = F(3)\n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if info, _ := os.Stat(filepath.Join(dir, "b.go")); info.Mode().Perm() != 0o640 {
		t.Errorf("b.go has mode %v, want 0640 kept", info.Mode().Perm())
	}
	if info, _ := os.Stat(filepath.Join(dir, "c.go")); asRoot && info.Sys().(*syscall.Stat_t).Uid != 4321 {
		t.Errorf("c.go is owned by %d, want 4321 kept", info.Sys().(*syscall.Stat_t).Uid)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*structls*")); len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// TestStaleRefused: a file changed after the preview (on disk, or as an open
// document) makes Check report it and WriteFiles refuse, writing nothing.
func TestStaleRefused(t *testing.T) {
	t.Run("disk", func(t *testing.T) {
		plan, dir, before := previewThree(t)
		changed := "package p\n\nvar v = f(22)\n"
		if err := os.WriteFile(filepath.Join(dir, "b.go"), []byte(changed), 0o644); err != nil {
			t.Fatal(err)
		}
		before["b.go"] = changed
		snap := snapshotOf(t, dir, nil)
		if diff := cmp.Diff([]rewrite.StaleFile{{Path: "b.go", Reason: "changed on disk since the preview"}}, plan.Check(snap)); diff != "" {
			t.Errorf("Check (-want +got):\n%s", diff)
		}
		err := WriteFiles(context.Background(), plan, snap)
		var stale *rewrite.StaleError
		if !errors.As(err, &stale) || !strings.Contains(err.Error(), "b.go (changed on disk since the preview)") || !strings.Contains(err.Error(), "preview the edit again") {
			t.Errorf("got %v, want a rewrite.StaleError naming b.go", err)
		}
		if diff := cmp.Diff(before, readTree(t, dir, "a.go", "b.go", "c.go")); diff != "" {
			t.Errorf("files changed (-before +after):\n%s", diff)
		}
	})
	t.Run("deleted", func(t *testing.T) {
		plan, dir, _ := previewThree(t)
		os.Remove(filepath.Join(dir, "c.go"))
		if diff := cmp.Diff([]rewrite.StaleFile{{Path: "c.go", Reason: "deleted since the preview"}}, plan.Check(snapshotOf(t, dir, nil))); diff != "" {
			t.Errorf("Check (-want +got):\n%s", diff)
		}
	})
	t.Run("document version", func(t *testing.T) {
		dir := testutil.WriteTree(t, threeFiles)
		path := filepath.Join(dir, "a.go")
		open := func(version int32, text string) *workspace.Snapshot {
			doc := &workspace.Document{URI: workspace.PathToURI(path), Path: path, Version: version, Content: []byte(text)}
			return snapshotOf(t, dir, map[string]*workspace.Document{doc.URI: doc})
		}
		text := "package p\n\nvar v = f(1) + f(9)\n"
		plan, err := rewrite.Preview(context.Background(), engine.Env{Snapshot: open(3, text), Encoding: workspace.UTF16}, rewrite.Query{Ops: ops("f($A)", "F($A)")})
		if err != nil {
			t.Fatal(err)
		}
		if stale := plan.Check(open(3, text)); len(stale) != 0 {
			t.Errorf("same version: %v", stale)
		}
		want := []rewrite.StaleFile{{Path: "a.go", Reason: "the open document is at version 4, the preview saw version 3"}}
		if diff := cmp.Diff(want, plan.Check(open(4, text))); diff != "" {
			t.Errorf("Check (-want +got):\n%s", diff)
		}
		// Closed again without saving: the disk does not hold the previewed text.
		if stale := plan.Check(snapshotOf(t, dir, nil)); len(stale) != 1 || stale[0].Path != "a.go" {
			t.Errorf("closed unsaved: %v", stale)
		}
		// The server may not write a file whose disk text is not what the preview saw.
		if err := WriteFiles(context.Background(), plan, open(3, text)); err == nil || !strings.Contains(err.Error(), "save it first") {
			t.Errorf("WriteFiles with unsaved buffer: %v", err)
		}
	})
}

// TestReadOnlyRefused: a read-only file is a clear error and no file is
// written, not even those before it.
func TestReadOnlyRefused(t *testing.T) {
	plan, dir, before := previewThree(t)
	if err := os.Chmod(filepath.Join(dir, "c.go"), 0o444); err != nil {
		t.Fatal(err)
	}
	err := WriteFiles(context.Background(), plan, snapshotOf(t, dir, nil))
	if err == nil || !strings.Contains(err.Error(), "nothing was written: c.go is read-only (mode 0444)") {
		t.Fatalf("got %v, want the read-only error", err)
	}
	if diff := cmp.Diff(before, readTree(t, dir, "a.go", "b.go", "c.go")); diff != "" {
		t.Errorf("files changed (-before +after):\n%s", diff)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*structls*")); len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// TestRollback: when replacing a later file fails, the files replaced before
// it get their old text back.
func TestRollback(t *testing.T) {
	plan, dir, before := previewThree(t)
	w := fileWriter{beforeReplace: func(rel string) error {
		if rel == "c.go" { // a.go and b.go are in place; c.go fails
			return errors.New("disk full")
		}
		return nil
	}}
	err := w.write(context.Background(), plan, snapshotOf(t, dir, nil))
	if err == nil || !strings.Contains(err.Error(), "replacing c.go: disk full") || !strings.Contains(err.Error(), "the 2 files replaced before it were put back, so nothing changed") {
		t.Fatalf("got %v", err)
	}
	if diff := cmp.Diff(before, readTree(t, dir, "a.go", "b.go", "c.go")); diff != "" {
		t.Errorf("files not restored (-before +after):\n%s", diff)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*structls*")); len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// TestSymlinkNotFollowed: a file replaced by a symlink after the preview is
// refused, and the symlink's target is untouched.
func TestSymlinkNotFollowed(t *testing.T) {
	plan, dir, _ := previewThree(t)
	outside := filepath.Join(t.TempDir(), "secret.go")
	if err := os.WriteFile(outside, []byte("package p\n\nvar v = f(2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "b.go"))
	if err := os.Symlink(outside, filepath.Join(dir, "b.go")); err != nil {
		t.Fatal(err)
	}
	err := WriteFiles(context.Background(), plan, snapshotOf(t, dir, nil))
	if err == nil {
		t.Fatal("WriteFiles wrote through a symlink")
	}
	if got, _ := os.ReadFile(outside); string(got) != "package p\n\nvar v = f(2)\n" {
		t.Errorf("the symlink's target changed: %q", got)
	}
	if got := readTree(t, dir, "a.go")["a.go"]; got != "package p\n\nvar v = f(1)\n" {
		t.Errorf("a.go was written: %q", got)
	}
}

// TestOutsideFoldersRefused: a plan is never written into a directory that
// is no longer a workspace folder.
func TestOutsideFoldersRefused(t *testing.T) {
	plan, dir, before := previewThree(t)
	other := snapshotOf(t, t.TempDir(), nil)
	err := WriteFiles(context.Background(), plan, other)
	if err == nil {
		t.Fatal("WriteFiles wrote outside the workspace folders")
	}
	if diff := cmp.Diff(before, readTree(t, dir, "a.go", "b.go", "c.go")); diff != "" {
		t.Errorf("files changed (-before +after):\n%s", diff)
	}
}

// TestOnlyOneReplacement: a plan narrowed to one replacement writes just it.
func TestOnlyOneReplacement(t *testing.T) {
	plan, dir := preview(t, "-- a.go --\npackage p\n\nvar v = f(\"日本\") + f(22) + f(333)\n", rewrite.Query{Ops: ops("f($A)", "LONGER($A)")})
	uri := plan.Result().Files[0].URI
	one, err := plan.Only(uri, 1)
	if err != nil {
		t.Fatal(err)
	}
	if one.ID() == plan.ID() || one.Result().TotalReplacements != 1 || one.Result().Files[0].Replacements[0].Before != "f(22)" {
		t.Errorf("narrowed plan %+v", one.Result())
	}
	if err := WriteFiles(context.Background(), one, snapshotOf(t, dir, nil)); err != nil {
		t.Fatal(err)
	}
	if got, want := readTree(t, dir, "a.go")["a.go"], "package p\n\nvar v = f(\"日本\") + LONGER(22) + f(333)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := plan.Only(uri, 3); err == nil {
		t.Error("Only accepted a replacement that does not exist")
	}
	if _, err := plan.Only("file:///elsewhere.go", 0); err == nil {
		t.Error("Only accepted a file the plan does not change")
	}
}

// TestSymlinkedDirectoryNotFollowed: a directory replaced by a symlink after
// the preview is refused, even when the file it leads to holds the
// previewed text.
func TestSymlinkedDirectoryNotFollowed(t *testing.T) {
	plan, dir := preview(t, "-- sub/a.go --\npackage p\n\nvar v = f(1)\n", rewrite.Query{Ops: ops("f($A)", "F($A)")})
	elsewhere := t.TempDir()
	testutil.WriteFiles(t, elsewhere, "-- a.go --\npackage p\n\nvar v = f(1)\n")
	if err := os.RemoveAll(filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	// Refused by the write's own check, or already by Check where the
	// workspace reads files without following symlinks in any directory.
	err := WriteFiles(context.Background(), plan, snapshotOf(t, dir, nil))
	if err == nil || !strings.Contains(err.Error(), "now a symlink") && !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("got %v, want the symlinked directory refused", err)
	}
	if got := readTree(t, elsewhere, "a.go")["a.go"]; got != "package p\n\nvar v = f(1)\n" {
		t.Errorf("the file behind the symlink was written: %q", got)
	}
}

// TestTwoFolders: files of the same name in two workspace folders are told
// apart, and a plan made over other folders is stale.
func TestTwoFolders(t *testing.T) {
	one := testutil.WriteTree(t, "-- a.go --\npackage p\n\nvar v = f(1)\n")
	two := testutil.WriteTree(t, "-- a.go --\npackage p\n\nvar v = f(2)\n")
	folders := func(dirs ...string) *workspace.Snapshot {
		var fs []workspace.Folder
		for _, d := range dirs {
			f, err := workspace.NewFolder(d, "")
			if err != nil {
				t.Fatal(err)
			}
			fs = append(fs, f)
		}
		return workspace.NewSnapshot(fs, workspace.Settings{}, nil)
	}
	plan, err := rewrite.Preview(context.Background(), engine.Env{Snapshot: folders(one, two), Encoding: workspace.UTF16}, rewrite.Query{Ops: ops("f($A)", "F($A)")})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(two, "a.go"), []byte("package p\n\nvar v = f(22)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stale := plan.Check(folders(one, two))
	if len(stale) != 1 || stale[0].Reason != "changed on disk since the preview" || plan.Files()[1].Abs != filepath.Join(two, "a.go") {
		t.Errorf("Check: %v, want the second folder's a.go", stale)
	}
	if stale := plan.Check(folders(two, one)); len(stale) != 2 || stale[0].Reason != "the workspace folders changed since the preview" {
		t.Errorf("Check with the folders swapped: %v", stale)
	}
	if err := os.WriteFile(filepath.Join(two, "a.go"), []byte("package p\n\nvar v = f(2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(context.Background(), plan, folders(one, two)); err != nil {
		t.Fatal(err)
	}
	if a, b := readTree(t, one, "a.go")["a.go"], readTree(t, two, "a.go")["a.go"]; a != "package p\n\nvar v = F(1)\n" || b != "package p\n\nvar v = F(2)\n" {
		t.Errorf("written: %q, %q", a, b)
	}
}

// TestUnsavedBufferNotWritten: a file that exists only as an open document
// is previewed, but the server does not write it (the editor must save it).
func TestUnsavedBufferNotWritten(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage p\n")
	path := filepath.Join(dir, "new.go")
	doc := &workspace.Document{URI: workspace.PathToURI(path), Path: path, Version: 1, Content: []byte("package p\n\nvar v = f(1)\n")}
	snap := snapshotOf(t, dir, map[string]*workspace.Document{doc.URI: doc})
	plan, err := rewrite.Preview(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, rewrite.Query{Ops: ops("f($A)", "F($A)")})
	if err != nil {
		t.Fatal(err)
	}
	if res := plan.Result(); len(res.Files) != 1 || res.Files[0].Path != "new.go" {
		t.Fatalf("files %+v, want the unsaved new.go", res.Files)
	}
	if stale := plan.Check(snap); len(stale) != 0 {
		t.Errorf("Check: %v", stale)
	}
	err = WriteFiles(context.Background(), plan, snap)
	if err == nil || !strings.Contains(err.Error(), "new.go exists only in the editor, never saved: save it") {
		t.Errorf("got %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("new.go was created on disk")
	}
}

// TestLongFileNameWritten: a file whose name is near the system's limit (255
// bytes) is written too; its temporary file's name, which adds a prefix and
// a random suffix, must still fit.
func TestLongFileNameWritten(t *testing.T) {
	name := strings.Repeat("n", 250) + ".go"
	plan, dir := preview(t, "-- "+name+" --\npackage p\n\nvar v = f(1)\n", rewrite.Query{Ops: ops("f($A)", "F($A)")})
	if err := WriteFiles(context.Background(), plan, snapshotOf(t, dir, nil)); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, dir, name)[name]; got != "package p\n\nvar v = F(1)\n" {
		t.Errorf("after the apply: %q", got)
	}
}
