//go:build linux

package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestReadDirFD lists a directory holding every kind of entry and more
// names than one getdents batch holds, and compares the listing with
// os.ReadDir's: the same names, without "." and "..", each with its kind.
func TestReadDirFD(t *testing.T) {
	dir := t.TempDir()
	for i := range 3000 { // about 100 KB of records: several batches of the walk's buffer
		writeFile(t, dir, fmt.Sprintf("file-%04d-%s.go", i, strings.Repeat("x", 20)), "")
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, fast := range []bool{false, true} { // ordinary and raw system calls (fastcalls_linux.go)
		if _, err := syscall.Seek(fd, 0, 0); err != nil {
			t.Fatal(err)
		}
		got, err := readDirFD(fd, make([]byte, direntBufSize), fast)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(got, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
		if len(got) != len(want) {
			t.Fatalf("readDirFD(fast %v) listed %d entries; os.ReadDir %d", fast, len(got), len(want))
		}
		for i, e := range want {
			kind := entryOther
			switch {
			case e.Type().IsRegular():
				kind = entryFile
			case e.IsDir():
				kind = entryDir
			}
			if got[i].name != e.Name() || got[i].kind != kind {
				t.Errorf("fast %v, entry %d: %q kind %d; os.ReadDir has %q kind %d", fast, i, got[i].name, got[i].kind, e.Name(), kind)
			}
		}
	}
}

// TestDirentType: the kind of an entry whose file system leaves d_type
// unknown comes from its stat, a symlink never counting as what it points to.
func TestDirentType(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "a.txt", "a")
	link := filepath.Join(dir, "link")
	if err := os.Symlink("a.txt", link); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]uint8{file: syscall.DT_REG, dir: syscall.DT_DIR, link: syscall.DT_UNKNOWN} {
		var st syscall.Stat_t
		if err := syscall.Lstat(path, &st); err != nil {
			t.Fatal(err)
		}
		if got := direntType(st.Mode); got != want {
			t.Errorf("direntType(%s) = %d; want %d", path, got, want)
		}
	}
}
