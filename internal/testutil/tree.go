// Package testutil holds helpers shared by the tests of several packages.
package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// LargeGoDir writes a directory holding one Go file of about 400 KB, n
// functions each holding calls and declaring a struct type, whose parse
// takes tens of MB of arena: for tests that a run gives its workers'
// parse memory back when it ends. It returns the directory.
func LargeGoDir(t testing.TB, n int) string {
	var b strings.Builder
	b.WriteString("package p\n")
	for i := range n {
		fmt.Fprintf(&b, "\ntype T%d struct{ A, b int }\n\nfunc F%d(x int) int {\n\tf(1, 2)\n\treturn g(x, %d)\n}\n", i, i, i)
	}
	return WriteTree(t, "-- big.go --\n"+b.String())
}
