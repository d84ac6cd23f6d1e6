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
		ed := newEditor(t, dir, EditorOptions{ApplyEdits: ApplyEditsUnsupported})
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
		case ErrorCode(err) == int(ContentModified) && strings.Contains(err.Error(), "a.go (saved while the edit was being applied"):
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
