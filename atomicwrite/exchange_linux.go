package atomicwrite

import "golang.org/x/sys/unix"

// renameExchange swaps the files from and to of the directory dirfd in one
// step (renameat2(2) RENAME_EXCHANGE); file systems without it answer EINVAL.
func renameExchange(dirfd int, from, to string) error {
	return unix.Renameat2(dirfd, from, dirfd, to, unix.RENAME_EXCHANGE)
}
