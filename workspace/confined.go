package workspace

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// Confined opening. The walk lists a directory, then opens paths below it by
// name; if someone swaps a listed directory for a symlink in between, a
// plain open follows it out of the workspace (O_NOFOLLOW guards only the last
// component). So every file and directory below a workspace folder is opened
// relative to a handle on the folder's root, refusing a symlink at any
// component: with openat2(2) and RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS, or, on
// kernels without it, one openat(O_NOFOLLOW) per component. The root handle
// itself is opened by the folder's real (symlink-free) path, again refusing
// symlinks on the way.

// openat2Missing is set when openat2 cannot be used: the kernel predates it
// (ENOSYS), or a seccomp filter that does not know it refuses it (EPERM, as
// older container runtimes do). Tests set it to exercise the fallback.
var openat2Missing atomic.Bool

// openat2Probe tries openat2 once, on "/", before its first real use.
var openat2Probe sync.Once

// useOpenat2 reports whether openBeneath may use openat2.
func useOpenat2() bool {
	openat2Probe.Do(func() {
		fd, err := openat2(atFDCWD, "/", oPath|syscall.O_DIRECTORY|syscall.O_CLOEXEC, resolveNoSymlinks, false)
		if err != nil {
			openat2Missing.Store(true)
			return
		}
		syscall.Close(fd)
	})
	return !openat2Missing.Load()
}

// openBeneath opens the relative path rel below the directory dirfd without
// following a symlink at any component and without leaving dirfd (an
// absolute path or a ".." that climbs out is refused with EXDEV). flags get
// O_NOFOLLOW|O_CLOEXEC.
func openBeneath(dirfd int, rel string, flags int, fast bool) (int, error) {
	flags |= syscall.O_NOFOLLOW | syscall.O_CLOEXEC
	if filepath.IsAbs(rel) {
		return -1, syscall.EXDEV
	}
	if useOpenat2() {
		fd, err := openat2(dirfd, rel, flags, resolveBeneath|resolveNoSymlinks, fast)
		if err != syscall.ENOSYS {
			return fd, err
		}
		openat2Missing.Store(true)
	}
	return openStepwise(dirfd, rel, flags)
}

// openStepwise is openBeneath for kernels without openat2: it opens one
// component at a time, each relative to the directory opened before it.
func openStepwise(dirfd int, rel string, flags int) (int, error) {
	cur := dirfd
	defer func() {
		if cur != dirfd {
			syscall.Close(cur)
		}
	}()
	parts := strings.Split(filepath.ToSlash(rel), "/")
	last := len(parts) - 1
	for last > 0 && parts[last] == "" { // "dir/" names dir
		last--
	}
	for i, part := range parts[:last+1] {
		switch {
		case part == "..":
			return -1, syscall.EXDEV // what openat2 answers to a climb out (inner ".." never occur in clean paths)
		case i == last:
			if part == "" {
				part = "."
			}
			return openat(cur, part, flags)
		case part == "" || part == ".":
			continue
		}
		next, err := openat(cur, part, oPath|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC)
		if err != nil {
			return -1, err
		}
		if cur != dirfd {
			syscall.Close(cur)
		}
		cur = next
	}
	return -1, syscall.ENOENT // unreachable: the loop returns at the last part
}

// folderRoot is an open handle on a workspace folder's root directory, from
// which paths below the folder are opened. It is closed by close, or else
// when it is garbage collected (so a snapshot can share it with every read it
// serves without an end of life of its own).
type folderRoot struct {
	fd      int
	cleanup runtime.Cleanup
}

// openFolderRoot opens the directory at the symlink-free absolute path
// real, refusing a symlink at any component on the way.
func openFolderRoot(real string) (*folderRoot, error) {
	slash, err := syscall.Open("/", oPath|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: "/", Err: err}
	}
	defer syscall.Close(slash)
	rel := strings.TrimPrefix(filepath.Clean(real), "/")
	if rel == "" {
		rel = "."
	}
	fd, err := openBeneath(slash, rel, syscall.O_RDONLY|syscall.O_DIRECTORY, false)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: real, Err: err}
	}
	r := &folderRoot{fd: fd}
	r.cleanup = runtime.AddCleanup(r, func(fd int) { closeFD(fd, false) }, fd)
	return r, nil
}

// open opens the slash path rel below the root (see openBeneath), with raw
// system calls when fast (see fastcalls_linux.go).
func (r *folderRoot) open(rel string, flags int, fast bool) (int, error) {
	fd, err := openBeneath(r.fd, rel, flags, fast)
	runtime.KeepAlive(r) // r.fd must not be closed, and its number reused, during the call
	return fd, err
}

// stat stats the slash path rel below the root without following a
// symlink at its last component (see Snapshot.Stat for the others).
func (r *folderRoot) stat(rel string, st *unix.Stat_t) error {
	err := unix.Fstatat(r.fd, rel, st, unix.AT_SYMLINK_NOFOLLOW)
	runtime.KeepAlive(r)
	return err
}

// close releases the handle now.
func (r *folderRoot) close() {
	r.cleanup.Stop()
	syscall.Close(r.fd)
}
