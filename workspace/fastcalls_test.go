//go:build linux

package workspace

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestFastCallsOnlyOnLocalDisk: files the walk lists in a directory on a
// local disk are read with raw system calls, and read the same bytes as
// with ordinary ones; a filesystem that is not known to be a local disk
// (here /proc) gets ordinary calls, as a network or FUSE one does.
func TestFastCallsOnlyOnLocalDisk(t *testing.T) {
	var archive strings.Builder
	for i := range 20 {
		fmt.Fprintf(&archive, "-- d%d/f%02d.go --\npackage p // %s\n", i%3, i, strings.Repeat("x", i*500))
	}
	snap, dir := newTestSnapshot(t, archive.String(), Settings{})
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	local := onLocalDisk(fd)
	syscall.Close(fd)
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.TMPFS_MAGIC, unix.OVERLAYFS_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC:
		if !local {
			t.Fatalf("onLocalDisk(%s) = false on a filesystem of type %#x; want true", dir, st.Type)
		}
	}
	resolved, err := snap.ResolvePaths(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	walked := 0
	err = snap.WalkFunc(context.Background(), resolved.Targets, WalkOptions{Hidden: true}, func(f File) {
		if !strings.HasSuffix(f.Rel, ".go") {
			return
		}
		walked++
		if f.onLocalDisk != local {
			t.Errorf("%s: onLocalDisk %v; its directory's filesystem says %v", f.Rel, f.onLocalDisk, local)
		}
		want, err := os.ReadFile(f.Abs)
		if err != nil {
			t.Fatal(err)
		}
		for _, fast := range []bool{false, true} {
			f.onLocalDisk = fast
			got, stamp, err := snap.ReadFileStamp(f, nil)
			if err != nil || !bytes.Equal(got, want) || stamp == (FileStamp{}) {
				t.Errorf("%s (fast %v): read %d bytes, stamp %v, %v; want the file's %d bytes and its stamp", f.Rel, fast, len(got), stamp, err, len(want))
			}
		}
	})
	if err != nil || walked != 20 {
		t.Fatalf("walked %d .go files, %v; want 20", walked, err)
	}

	proc, err := syscall.Open("/proc/self", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Skip("no /proc:", err)
	}
	defer syscall.Close(proc)
	if onLocalDisk(proc) {
		t.Error("onLocalDisk(/proc/self) = true; a filesystem not known to be a local disk must get ordinary calls")
	}
}
