//go:build !linux

package workspace

import "syscall"

// Confined opening (confined.go) is implemented for Linux only: elsewhere
// every open below a workspace folder fails with ENOSYS rather than risk
// following a swapped symlink.

const (
	resolveNoSymlinks = 0
	resolveBeneath    = 0
	oPath             = syscall.O_RDONLY
	atFDCWD           = -100 // unused: openat2 is never called here
)

func openat2(dirfd int, path string, flags int, resolve uint64, fast bool) (int, error) {
	return -1, syscall.ENOSYS
}

func openat(dirfd int, name string, flags int) (int, error) {
	return -1, syscall.ENOSYS
}

func readDirFD(fd int, buf []byte, fast bool) ([]dirEntry, error) {
	return nil, syscall.ENOSYS
}
