//go:build linux

package workspace

import (
	"syscall"
	"unsafe"
)

// Linux openat2(2) (linux/openat2.h; the same system call number on every
// architecture).
const (
	sysOpenat2        = 437
	resolveNoSymlinks = 0x04 // no symlink at any component, not even a magic link
	resolveBeneath    = 0x08 // no component may leave the starting directory
	atFDCWD           = -100 // AT_FDCWD: paths relative to the working directory
)

// openHow is struct open_how.
type openHow struct {
	flags, mode, resolve uint64
}

// openat2 opens path relative to dirfd with the resolve restrictions given,
// with a raw system call when fast; it returns ENOSYS on kernels older than
// 5.6.
func openat2(dirfd int, path string, flags int, resolve uint64, fast bool) (int, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	how := openHow{flags: uint64(flags), resolve: resolve}
	for retries := 0; ; retries++ {
		fd, errno := syscall6(fast, sysOpenat2, uintptr(dirfd), uintptr(unsafe.Pointer(p)),
			uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		switch {
		case errno == 0:
			return int(fd), nil
		case errno == syscall.EINTR, errno == syscall.EAGAIN && retries < 8: // EAGAIN: a concurrent rename
			continue
		}
		return -1, errno
	}
}

// oPath is O_PATH (missing from package syscall; 0x200000 on every
// architecture Go supports): a directory opened only to resolve paths from
// it, which needs no read permission.
const oPath = 0x200000

// openat is openat(2), retried on EINTR.
func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
