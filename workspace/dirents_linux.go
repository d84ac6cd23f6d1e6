//go:build linux

package workspace

import (
	"bytes"
	"encoding/binary"
	"syscall"

	"golang.org/x/sys/unix"
)

// readDirFD lists the directory open as fd, without "." and "..", reading
// the entries with getdents64 into buf (reused; its capacity is the size of
// one batch), with raw system calls when fast (fastcalls_linux.go). It is what os.File.ReadDir does, without an os.File (whose
// creation asks the kernel for the handle's flags) or an allocation for each
// entry beyond its name: the walk lists every directory of a tree.
func readDirFD(fd int, buf []byte, fast bool) ([]dirEntry, error) {
	var entries []dirEntry
	for {
		n, err := getdentsFD(fd, buf, fast)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return entries, err
		}
		if n <= 0 {
			return entries, nil
		}
		for rec := buf[:n]; len(rec) >= direntNameOffset; {
			// struct linux_dirent64: d_ino u64, d_off s64, d_reclen u16, d_type u8, d_name.
			reclen := int(binary.NativeEndian.Uint16(rec[16:18]))
			if reclen < direntNameOffset || reclen > len(rec) {
				return entries, syscall.EIO // a record the kernel would never write
			}
			name := rec[direntNameOffset:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			typ := rec[18]
			rec = rec[reclen:]
			if string(name) == "." || string(name) == ".." {
				continue
			}
			e := dirEntry{name: string(name)}
			if typ == unix.DT_UNKNOWN { // some file systems leave the type to a stat
				var st unix.Stat_t
				if err := unix.Fstatat(fd, e.name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					continue // gone since the listing
				}
				typ = direntType(st.Mode)
			}
			switch typ {
			case unix.DT_REG:
				e.kind = entryFile
			case unix.DT_DIR:
				e.kind = entryDir
			}
			entries = append(entries, e)
		}
	}
}

// direntNameOffset is the offset of d_name in struct linux_dirent64.
const direntNameOffset = 19

// direntType is the DT_ type of a stat mode, for the types the walk tells apart.
func direntType(mode uint32) uint8 {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return unix.DT_REG
	case unix.S_IFDIR:
		return unix.DT_DIR
	}
	return unix.DT_UNKNOWN
}
