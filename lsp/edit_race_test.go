package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// TestServerApplyKeepsSave: the server writes an apply (the client has no
// workspace.applyEdit) while a.go is saved the moment its temporary file
// appears, again and again: the save always survives — the apply is refused
// with ContentModified and every other file put back, or the save came
// after a.go was replaced and wins.
func TestServerApplyKeepsSave(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the apply's journal
	const saved = "package p\n\nvar v = saved(1)\n"
	var tree strings.Builder
	tree.WriteString("-- a.go --\npackage p\n\nvar v = f(1)\n")
	for i := range 150 {
		fmt.Fprintf(&tree, "-- m/f%03d.go --\npackage p\n\nvar v%d = f(%d)\n", i, i, i)
	}
	tree.WriteString("-- z.go --\npackage p\n\nvar v = f(2)\n")
	ctx := context.Background()
	refused := 0
	for round := range 5 {
		dir := testutil.WriteTree(t, tree.String())
		ed := newEditor(t, dir, client.EditorOptions{ApplyEdits: client.ApplyEditsUnsupported})
		var preview struct{ ID string }
		raw, err := ed.ExecuteCommand(ctx, CommandAstEdit, map[string]any{"ops": []map[string]string{{"pattern": "f($A)", "rewrite": "F($A)"}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &preview); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for {
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					if strings.HasPrefix(e.Name(), ".a.go"+workspace.TempMarker) {
						if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(saved), 0o644); err != nil {
							t.Error(err)
						}
						return
					}
				}
				select {
				case <-done:
					return
				default:
				}
			}
		})
		_, err = ed.ExecuteCommand(ctx, CommandApplyEdit, map[string]string{"id": preview.ID})
		close(done)
		wg.Wait()
		got, _ := os.ReadFile(filepath.Join(dir, "a.go"))
		if string(got) != saved {
			t.Fatalf("round %d: the save was lost: a.go holds %q (apply: %v)", round, got, err)
		}
		z, _ := os.ReadFile(filepath.Join(dir, "z.go"))
		switch {
		case err == nil:
			if !strings.Contains(string(z), "F(2)") {
				t.Fatalf("round %d: the apply succeeded but z.go holds %q", round, z)
			}
		case client.ErrorCode(err) == int(ContentModified) && strings.Contains(err.Error(), "a.go (saved while the edit was being applied"):
			refused++
			if !strings.Contains(string(z), "f(2)") {
				t.Fatalf("round %d: the apply was refused but z.go holds %q", round, z)
			}
		default:
			t.Fatalf("round %d: %v", round, err)
		}
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && workspace.IsTempName(d.Name()) {
				t.Errorf("round %d: temporary file left: %s", round, p)
			}
			return nil
		})
	}
	t.Logf("%d of 5 applies refused the save, the others came before it", refused)
}

// TestServerRollbackStaysInside: while the server writes an apply, the
// directory of a file already replaced is swapped for a symlink to a
// directory outside the workspace, and a later file's temporary file is
// removed so that its replacement fails: the rollback puts the first file
// back in the moved directory and writes nothing outside, again and again.
func TestServerRollbackStaysInside(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var tree strings.Builder
	tree.WriteString("-- a/x.go --\npackage p\n\nvar v = f(1)\n")
	for i := range 150 {
		fmt.Fprintf(&tree, "-- m/f%03d.go --\npackage p\n\nvar v%d = f(%d)\n", i, i, i)
	}
	tree.WriteString("-- z/x.go --\npackage p\n\nvar v = f(2)\n")
	ctx := context.Background()
	landed := 0
	for round := range 5 {
		dir := testutil.WriteTree(t, tree.String())
		outside := testutil.WriteTree(t, "-- x.go --\npackage outside\n")
		ed := newEditor(t, dir, client.EditorOptions{ApplyEdits: client.ApplyEditsUnsupported})
		var preview struct{ ID string }
		raw, err := ed.ExecuteCommand(ctx, CommandAstEdit, map[string]any{"ops": []map[string]string{{"pattern": "f($A)", "rewrite": "F($A)"}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &preview); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var wg sync.WaitGroup
		swapped := false
		wg.Go(func() {
			for {
				if b, _ := os.ReadFile(filepath.Join(dir, "a", "x.go")); strings.Contains(string(b), "F(1)") {
					break
				}
				select {
				case <-done:
					return
				default:
				}
			}
			if os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "a.moved")) != nil || os.Symlink(outside, filepath.Join(dir, "a")) != nil {
				t.Error("swapping a/ failed")
				return
			}
			temps, _ := filepath.Glob(filepath.Join(dir, "z", ".x.go"+workspace.TempMarker+"*"))
			for _, tmp := range temps {
				os.Remove(tmp)
			}
			swapped = true
		})
		_, err = ed.ExecuteCommand(ctx, CommandApplyEdit, map[string]string{"id": preview.ID})
		close(done)
		wg.Wait()
		if b, _ := os.ReadFile(filepath.Join(outside, "x.go")); string(b) != "package outside\n" {
			t.Fatalf("round %d: a file outside the workspace was written: %q (apply: %v)", round, b, err)
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 1 {
			t.Fatalf("round %d: files were created outside the workspace: %v", round, entries)
		}
		if !swapped || err == nil {
			continue
		}
		landed++
		if !strings.Contains(err.Error(), "replacing z/x.go") || !strings.Contains(err.Error(), "put back, so nothing changed") {
			t.Fatalf("round %d: %v", round, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "a.moved", "x.go")); string(b) != "package p\n\nvar v = f(1)\n" {
			t.Fatalf("round %d: a/x.go was not put back (in a.moved/): %q", round, b)
		}
	}
	t.Logf("the swap landed between the renames in %d of 5 rounds", landed)
	if landed == 0 {
		t.Error("the swap never landed between the renames: the test proved nothing")
	}
}
