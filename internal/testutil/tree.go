// Package testutil holds helpers shared by the tests of several packages.
package testutil

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// WriteTree extracts a txtar archive into a new temporary directory and
// returns its path (symlinks evaluated, so paths compare equal to what the
// server reports).
func WriteTree(t testing.TB, archive string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	WriteFiles(t, dir, archive)
	return dir
}

// WriteFiles extracts a txtar archive into dir.
func WriteFiles(t testing.TB, dir, archive string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
