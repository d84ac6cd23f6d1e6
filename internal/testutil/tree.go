// Package testutil holds helpers shared by the tests of several packages.
package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
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

// DeepDir makes, below dir, levels nested directories each named name
// (one level at a time, relative to the last, since the whole path soon
// passes what the system takes), with an empty file fN.txt at every
// level N that is a multiple of fileEvery, and returns the files' count.
// t.TempDir's cleanup removes such a tree: os.RemoveAll opens each level
// relative to the last too.
func DeepDir(t testing.TB, dir, name string, levels, fileEvery int) int {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for depth := 1; depth <= levels; depth++ {
		if err := unix.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
		if depth%fileEvery == 0 {
			f, err := unix.Openat(fd, fmt.Sprintf("f%d.txt", depth), unix.O_WRONLY|unix.O_CREAT, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			unix.Close(f)
			files++
		}
	}
	unix.Close(fd)
	return files
}
