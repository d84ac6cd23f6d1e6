package workspace

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// FileStamp identifies one version of a file on disk without its bytes:
// the device and inode it lives at, its size, and its modification and
// status-change times. A long-lived cache may take a file whose stamp is
// unchanged for the file it read before, as gopls and make do, when the
// stamp was Settled at that read.
//
// What that guarantees: any write changes mtime and ctime, a save by rename
// changes the inode, and restoring an old mtime (touch -d) changes ctime,
// which no unprivileged call can set back. A change goes unseen only if it
// keeps all five equal: a write within the same timestamp tick as the read
// (which Settled rules out), or a system clock set back.
type FileStamp struct {
	Dev, Inode        uint64
	Size              int64
	ModNanos, ChNanos int64 // mtime and ctime, in nanoseconds since 1970
}

// StampOf is the stamp of a stat result.
func StampOf(st *unix.Stat_t) FileStamp { return stampOf(st) }

// stampOf is the stamp of a stat result.
func stampOf(st *unix.Stat_t) FileStamp {
	return FileStamp{Dev: uint64(st.Dev), Inode: uint64(st.Ino), Size: st.Size,
		ModNanos: unix.TimespecToNsec(st.Mtim), ChNanos: unix.TimespecToNsec(st.Ctim)}
}

// StampSlack is how old a file's last change must be before its stamp is
// trusted to tell its versions apart: file systems keep times in ticks (a
// few milliseconds on Linux, up to 2 s on FAT and some network file
// systems), and two writes in one tick leave the same times.
const StampSlack = 2 * time.Second

// Settled reports whether the file last changed (mtime and ctime) at least
// StampSlack before now: then a later write gets other times than the ones
// in the stamp, so an equal stamp means the same bytes.
func (st FileStamp) Settled(now time.Time) bool {
	limit := now.Add(-StampSlack).UnixNano()
	return st.ModNanos <= limit && st.ChNanos <= limit
}

// Stat returns the stamp of a file on disk found by Walk (not of its open
// document: callers read those from the overlay), without opening it. A
// file that is not a regular file, or is larger than the size limit, is an
// error: reading it would fail too (ReadFile says why).
//
// The stat is taken below the folder's root but, unlike ReadFile, follows
// a directory swapped for a symlink since the walk: a stamp equal to one
// ReadFile recorded still means the very file read before (same device and
// inode), and any other gives a mismatch, so the caller reads it again,
// confined.
func (s *Snapshot) Stat(f File) (FileStamp, error) {
	root, err := s.root(f.Folder)
	if err != nil {
		return FileStamp{}, err
	}
	var st unix.Stat_t
	if err := root.stat(f.Rel, &st); err != nil {
		return FileStamp{}, &os.PathError{Op: "stat", Path: f.Rel, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return FileStamp{}, fmt.Errorf("%s is not a regular file", f.Rel)
	}
	if limit := s.Settings.EffectiveMaxFileSize(); st.Size > limit {
		return FileStamp{}, fmt.Errorf("%s (%d bytes): %w", f.Rel, st.Size, ErrTooLarge)
	}
	return stampOf(&st), nil
}
