//go:build !linux

package atomicwrite

import "syscall"

// renameExchange is Linux's renameat2 RENAME_EXCHANGE; elsewhere the
// other way of swap (a link to the old file, then a rename) is taken.
func renameExchange(dirfd int, from, to string) error { return syscall.EINVAL }
