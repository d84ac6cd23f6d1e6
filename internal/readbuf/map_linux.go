package readbuf

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// starts holds the start of every buffer mapped, to tell a lent buffer
// from any other.
var starts sync.Map // *byte -> struct{}

// mapBuffer maps Size bytes on a huge-page boundary: 2 MiB more, trimmed.
func mapBuffer() []byte {
	raw, err := unix.Mmap(-1, 0, Size+hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil
	}
	start := uintptr(unsafe.Pointer(&raw[0]))
	skip := int((hugePage - start%hugePage) % hugePage)
	b := raw[skip : skip+Size : skip+Size]
	// Trim the head and tail with raw munmap: unix.Munmap only takes whole
	// mappings it made.
	if skip > 0 {
		unix.Syscall(unix.SYS_MUNMAP, start, uintptr(skip), 0)
	}
	// The rest of the extra 2 MiB: never empty, as skip < hugePage.
	unix.Syscall(unix.SYS_MUNMAP, start+uintptr(skip+Size), uintptr(hugePage-skip), 0)
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // advice only: without it, 4 KiB pages
	starts.Store(&b[0], struct{}{})
	return b[:0]
}

// lent reports whether b starts a buffer mapBuffer made.
func lent(b []byte) bool {
	if cap(b) != Size {
		return false
	}
	_, ok := starts.Load(&b[:1][0])
	return ok
}
