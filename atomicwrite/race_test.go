package atomicwrite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// manyFiles is a tree of first (a file sorting first), count files under
// m/, and last: f($A) → F($A) rewrites them all, so an apply spends a
// while between the first file's temporary file and the last rename.
func manyFiles(first, last string, count int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- %s --\npackage p\n\nvar v = f(1)\n", first)
	for i := range count {
		fmt.Fprintf(&b, "-- m/f%03d.go --\npackage p\n\nvar v%d = f(%d)\n", i, i, i)
	}
	fmt.Fprintf(&b, "-- %s --\npackage p\n\nvar v = f(2)\n", last)
	return b.String()
}

// waitFor polls until cond holds or done is closed, and reports whether it held.
func waitFor(done <-chan struct{}, cond func() bool) bool {
	for {
		if cond() {
			return true
		}
		select {
		case <-done:
			return cond()
		default:
		}
	}
}

// hasTemp reports whether dir holds a temporary file of the file name.
func hasTemp(dir, name string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "."+name+workspace.TempMarker) {
			return true
		}
	}
	return false
}

// tempsLeft lists the temporary files left anywhere under dir.
func tempsLeft(t *testing.T, dir string) []string {
	t.Helper()
	var left []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && workspace.IsTempName(d.Name()) {
			left = append(left, p)
		}
		return nil
	})
	return left
}

// bothWays runs test with RENAME_EXCHANGE and with the link-then-rename
// way of file systems without it.
func bothWays(t *testing.T, test func(t *testing.T)) {
	t.Run("exchange", test)
	t.Run("link", func(t *testing.T) {
		exchangeMissing.Store(true)
		defer exchangeMissing.Store(false)
		test(t)
	})
}

// TestSaveDuringApplyKept saves a.go (a whole new text, as an editor does)
// the moment its temporary file appears, again and again: the save always
// survives. Either the apply notices it and refuses, putting every other
// file back, or the save landed after a.go was replaced and wins.
func TestSaveDuringApplyKept(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		const saved = "package p\n\nvar v = saved(1)\n"
		refused := 0
		for round := range 6 {
			plan, dir := preview(t, manyFiles("a.go", "z.go", 100), rewrite.Query{Ops: ops("f($A)", "F($A)")})
			done := make(chan struct{})
			var wg sync.WaitGroup
			wg.Go(func() {
				if waitFor(done, func() bool { return hasTemp(dir, "a.go") }) {
					if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(saved), 0o644); err != nil {
						t.Error(err)
					}
				}
			})
			err := WriteFiles(context.Background(), plan, snapshotOf(t, dir, nil))
			close(done)
			wg.Wait()
			if got := readTree(t, dir, "a.go")["a.go"]; got != saved {
				t.Fatalf("round %d: the save was lost: a.go holds %q (apply: %v)", round, got, err)
			}
			want := "package p\n\nvar v = F(2)\n" // the apply went through after the save
			var stale *rewrite.StaleError
			switch {
			case errors.As(err, &stale):
				if !strings.Contains(err.Error(), "a.go (saved while the edit was being applied") {
					t.Fatalf("round %d: %v", round, err)
				}
				refused++
				want = "package p\n\nvar v = f(2)\n"
			case err != nil:
				t.Fatalf("round %d: %v", round, err)
			}
			if got := readTree(t, dir, "z.go")["z.go"]; got != want {
				t.Fatalf("round %d (apply: %v): z.go holds %q, want %q", round, err, got, want)
			}
			if left := tempsLeft(t, dir); len(left) > 0 {
				t.Fatalf("round %d: temporary files left: %v", round, left)
			}
		}
		t.Logf("%d of 6 applies refused the save, the others came before it", refused)
	})
}

// TestRollbackStaysInside swaps a directory whose file was already replaced
// for a symlink to a directory outside the workspace, and removes the
// temporary file of a later file so that its replacement fails: the
// rollback must put the first file back where it is (the moved directory)
// and never write through the symlink.
func TestRollbackStaysInside(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		const outsideText = "package outside\n"
		landed := 0
		for round := range 6 {
			plan, dir := preview(t, manyFiles("a/x.go", "z/x.go", 150), rewrite.Query{Ops: ops("f($A)", "F($A)")})
			outside := t.TempDir()
			testutil.WriteFiles(t, outside, "-- x.go --\n"+outsideText)
			done := make(chan struct{})
			var wg sync.WaitGroup
			var swapped bool
			wg.Go(func() {
				isNew := func() bool {
					b, _ := os.ReadFile(filepath.Join(dir, "a", "x.go"))
					return strings.Contains(string(b), "F(1)")
				}
				if !waitFor(done, isNew) {
					return
				}
				if os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "a.moved")) != nil ||
					os.Symlink(outside, filepath.Join(dir, "a")) != nil {
					t.Error("swapping a/ failed")
					return
				}
				temps, _ := filepath.Glob(filepath.Join(dir, "z", ".x.go"+workspace.TempMarker+"*"))
				for _, tmp := range temps {
					os.Remove(tmp)
				}
				swapped = true
			})
			err := WriteFiles(context.Background(), plan, snapshotOf(t, dir, nil))
			close(done)
			wg.Wait()
			if got := readTree(t, outside, "x.go")["x.go"]; got != outsideText {
				t.Fatalf("round %d: a file outside the workspace was written: %q (apply: %v)", round, got, err)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 1 {
				t.Fatalf("round %d: files were created outside the workspace: %v", round, entries)
			}
			if !swapped || err == nil {
				continue // the swap came after the apply
			}
			landed++
			if !strings.Contains(err.Error(), "replacing z/x.go") || !strings.Contains(err.Error(), "put back, so nothing changed") {
				t.Fatalf("round %d: %v", round, err)
			}
			if got := readTree(t, dir, "a.moved/x.go")["a.moved/x.go"]; got != "package p\n\nvar v = f(1)\n" {
				t.Fatalf("round %d: the first file was not put back where it is: %q (apply: %v)", round, got, err)
			}
		}
		t.Logf("the swap landed between the renames in %d of 6 rounds", landed)
		if landed == 0 {
			t.Error("the swap never landed between the renames: the test proved nothing")
		}
	})
}

// TestModeBitsKept: a replaced file keeps its setuid, setgid and sticky
// bits with its permissions.
func TestModeBitsKept(t *testing.T) {
	plan, dir := preview(t, "-- a.go --\npackage p\n\nvar v = f(1)\n-- b.go --\npackage p\n\nvar v = f(2)\n-- c.go --\npackage p\n\nvar v = f(3)\n-- d.go --\npackage p\n\nvar v = f(4)\n",
		rewrite.Query{Ops: ops("f($A)", "F($A)")})
	modes := map[string]os.FileMode{
		"a.go": 0o755 | os.ModeSetuid, "b.go": 0o755 | os.ModeSetgid, "c.go": 0o755 | os.ModeSticky, "d.go": 0o640 | os.ModeSetuid | os.ModeSetgid}
	for name, mode := range modes {
		if err := os.Chmod(filepath.Join(dir, name), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFiles(context.Background(), plan, snapshotOf(t, dir, nil)); err != nil {
		t.Fatal(err)
	}
	for name, mode := range modes {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode(); got != mode {
			t.Errorf("%s: mode %v after the apply, want %v", name, got, mode)
		}
		if !strings.Contains(readTree(t, dir, name)[name], "F(") {
			t.Errorf("%s was not rewritten", name)
		}
	}
}
