//go:build !linux

package workspace

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// Fast system calls are Linux's (fastcalls_linux.go): elsewhere every call
// is an ordinary one.

func onLocalDisk(fd int) bool { return false }

func fstatFD(fd int, st *unix.Stat_t, fast bool) error { return unix.Fstat(fd, st) }

func readFD(fd int, p []byte, fast bool) (int, error) { return syscall.Read(fd, p) }

func closeFD(fd int, fast bool) { syscall.Close(fd) }
