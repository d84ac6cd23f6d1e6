package atomicwrite

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// pendingWrite is one file of a plan on its way into place. Every name is a
// base name in dir: nothing is ever opened, renamed or removed by a path
// that could cross a symlink.
type pendingWrite struct {
	file   *rewrite.PlannedFile
	dir    *os.File
	name   string // the file
	temp   string // its new text until the swap; the old file after it
	backup string // where the old file is kept when the file system cannot swap (temp+".old")
	// stamp is the file as checked (its bytes hashed to the preview's hash);
	// settled says a later write cannot leave an equal stamp (FileStamp.Settled).
	stamp   workspace.FileStamp
	settled bool
	mode    uint32 // st_mode: permission, setuid, setgid and sticky bits to keep
	uid     uint32
	gid     uint32
	newHash [sha256.Size]byte
	tempIno uint64 // the temporary file's inode: the new file, once written
	// replaced says the new text is in place; swapped that the old file is at
	// temp (RENAME_EXCHANGE), not at backup.
	replaced, swapped bool
}

// maxTempBase is how much of a file's name its temporary file's name repeats.
const maxTempBase = 200

// checkFile checks one file on disk before anything is written: it must be
// a regular, writable file holding the previewed text. It names the
// temporary file its new text will go to.
func checkFile(snap *workspace.Snapshot, dirs dirHandles, f *rewrite.PlannedFile) (pendingWrite, error) {
	if !insideFolders(snap, f.Abs) {
		return pendingWrite{}, fmt.Errorf("%s is outside the workspace folders: open its folder, then preview the edit again", f.Rel)
	}
	dir, err := dirs.open(snap, f)
	if err != nil {
		return pendingWrite{}, fmt.Errorf("the directory of %s cannot be opened inside the workspace without following a symlink (moved, or now a symlink?): %w; preview the edit again", f.Rel, err)
	}
	name := path.Base(f.Rel)
	sum, st, err := hashAt(dir, name)
	switch {
	case errors.Is(err, syscall.ENOENT) && f.Version != nil:
		return pendingWrite{}, fmt.Errorf("%s exists only in the editor, never saved: save it, then preview the edit again", f.Rel)
	case errors.Is(err, syscall.ENOENT):
		return pendingWrite{}, &rewrite.StaleError{Files: []rewrite.StaleFile{{Path: f.Rel, Reason: "deleted since the preview"}}}
	case errors.Is(err, syscall.ELOOP), errors.Is(err, errNotRegular):
		return pendingWrite{}, fmt.Errorf("%s is no longer a regular file (a symlink?): preview the edit again", f.Rel)
	case err != nil:
		return pendingWrite{}, fmt.Errorf("%s cannot be read: %w", f.Rel, err)
	case st.Mode&0o200 == 0:
		return pendingWrite{}, fmt.Errorf("%s is read-only (mode %04o): make it writable (chmod u+w) or leave it out of paths, then preview again",
			f.Rel, st.Mode&0o7777)
	case sum != f.Hash:
		reason := "changed on disk since the preview"
		if f.Version != nil {
			reason = "its text on disk differs from the open document the preview saw: save it first"
		}
		return pendingWrite{}, &rewrite.StaleError{Files: []rewrite.StaleFile{{Path: f.Rel, Reason: reason}}}
	}
	if err := canKeepOwner(f.Rel, &st); err != nil {
		return pendingWrite{}, err
	}
	stamp := workspace.StampOf(&st)
	temp := "." + name[:min(len(name), maxTempBase)] + workspace.TempMarker + randomSuffix()
	return pendingWrite{file: f, dir: dir, name: name, temp: temp, backup: temp + ".old",
		stamp: stamp, settled: stamp.Settled(time.Now()), mode: st.Mode, uid: st.Uid, gid: st.Gid,
		newHash: sha256.Sum256(f.Content)}, nil
}

// canKeepOwner refuses, before anything is written, a file whose
// replacement could not keep its owner: the new text goes to a new file,
// and only root may give a file to another user. (A group the process is
// not a member of is found when the temporary file is chowned.)
func canKeepOwner(rel string, st *unix.Stat_t) error {
	if euid := os.Geteuid(); euid != 0 && st.Uid != uint32(euid) {
		return fmt.Errorf("%s belongs to another user (uid %d; structls runs as uid %d): an apply replaces a file with a new one, and only root can give that one back to its owner, so its owner could not be kept; apply the edit as that user or from an editor, or leave the file out of paths, then preview again",
			rel, st.Uid, euid)
	}
	return nil
}

// randomSuffix is the random part of a temporary file's name.
func randomSuffix() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// writeTemp writes the new text to the temporary file, with the file's
// owner, group and mode. The owner and group are set first: chown(2)
// clears the setuid and setgid bits, and chmod(2) keeps setgid only for a
// group the process is in. Since a file whose owner cannot be kept is
// refused (canKeepOwner), the setuid, setgid and sticky bits are always
// kept; the mode is read back to be sure. The caller makes it durable
// (syncFilesystems).
func (pw *pendingWrite) writeTemp() error {
	fd, err := unix.Openat(int(pw.dir.Fd()), pw.temp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EROFS) {
			return fmt.Errorf("%s cannot be replaced: no new file can be created in its directory (%w), where its new text is written before it replaces the file; make the directory writable, or leave the file out of paths, then preview again",
				pw.file.Rel, err)
		}
		return fmt.Errorf("%s: creating its new text's temporary file %s: %w", pw.file.Rel, pw.temp, err)
	}
	f := os.NewFile(uintptr(fd), pw.temp)
	err = pw.fill(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = unix.Unlinkat(int(pw.dir.Fd()), pw.temp, 0)
		return fmt.Errorf("%s: writing its new text: %w", pw.file.Rel, err)
	}
	return nil
}

// fill writes the new text into the open temporary file and gives it the
// old file's owner, group and mode.
func (pw *pendingWrite) fill(f *os.File) error {
	if _, err := f.Write(pw.file.Content); err != nil {
		return err
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return err
	}
	if st.Uid != pw.uid || st.Gid != pw.gid {
		if err := unix.Fchown(int(f.Fd()), int(pw.uid), int(pw.gid)); err != nil {
			return fmt.Errorf("it belongs to uid %d, gid %d, which its new file could not be given (%w): apply the edit as its owner or from an editor, or leave the file out of paths", pw.uid, pw.gid, err)
		}
	}
	want := pw.mode & 0o7777
	if err := unix.Fchmod(int(f.Fd()), want); err != nil {
		return fmt.Errorf("keeping its mode %04o: %w", want, err)
	}
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return err
	}
	if got := st.Mode & 0o7777; got != want {
		return fmt.Errorf("its mode %04o could not be kept (the new file got %04o): apply the edit as its owner, or leave the file out of paths", want, got)
	}
	pw.tempIno = st.Ino
	return nil
}

// unchanged checks that the file at name (the file itself before its swap,
// the old file at temp or backup after it) is still the one checked at
// first: the same stamp, or else the same bytes. withCtime is false after
// the swap, whose rename changed the old file's ctime.
func (pw *pendingWrite) unchanged(name string, withCtime bool) error {
	var st unix.Stat_t
	err := unix.Fstatat(int(pw.dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	switch {
	case errors.Is(err, syscall.ENOENT):
		return &movedError{reason: "deleted while the edit was being applied"}
	case err != nil:
		return err
	}
	now := workspace.StampOf(&st)
	if !withCtime {
		now.ChNanos = pw.stamp.ChNanos
	}
	if now == pw.stamp && pw.settled {
		return nil
	}
	sum, _, err := hashAt(pw.dir, name)
	switch {
	case errors.Is(err, syscall.ELOOP), errors.Is(err, errNotRegular):
		return &movedError{reason: "replaced by something other than a regular file while the edit was being applied"}
	case err != nil:
		return err
	case sum != pw.file.Hash:
		return &movedError{reason: "saved while the edit was being applied, after its check and before its replacement"}
	}
	return nil
}

// exchangeMissing is set once the file system refused RENAME_EXCHANGE
// (EINVAL: not every file system has it); tests set it to exercise the other
// way.
var exchangeMissing atomic.Bool

// swap puts the new text in place of the file. With RENAME_EXCHANGE the two
// trade names in one step and the old file is checked afterwards, where no
// save can slip in between; otherwise the old file gets a second name
// (backup) first, is checked there, and the new one is renamed over it.
func (pw *pendingWrite) swap() error {
	dir := int(pw.dir.Fd())
	if !exchangeMissing.Load() {
		err := renameExchange(dir, pw.temp, pw.name)
		switch {
		case err == nil:
			pw.replaced, pw.swapped = true, true
			if err := pw.unchanged(pw.temp, false); err != nil {
				if uerr := pw.undo(); uerr != nil {
					return fmt.Errorf("%w; and putting it back failed: %v", err, uerr)
				}
				return err
			}
			return nil
		case errors.Is(err, syscall.EINVAL), errors.Is(err, syscall.ENOSYS), errors.Is(err, syscall.EOPNOTSUPP):
			exchangeMissing.Store(true)
		default:
			return err
		}
	}
	if err := unix.Linkat(dir, pw.name, dir, pw.backup, 0); err != nil {
		return fmt.Errorf("keeping the old file until the edit is whole (link to %s): %w", pw.backup, err)
	}
	if err := pw.unchanged(pw.backup, false); err != nil {
		_ = unix.Unlinkat(dir, pw.backup, 0)
		return err
	}
	if err := unix.Renameat(dir, pw.temp, dir, pw.name); err != nil {
		_ = unix.Unlinkat(dir, pw.backup, 0)
		return err
	}
	pw.replaced = true
	return nil
}

// kept is the name the old file is kept at once the new one is in place.
func (pw *pendingWrite) kept() string {
	if pw.swapped {
		return pw.temp
	}
	return pw.backup
}

// undo puts the old file back in place of the new one, unless the new one
// was replaced since (a save after the apply's swap is kept).
func (pw *pendingWrite) undo() error {
	dir := int(pw.dir.Fd())
	var st unix.Stat_t
	if err := unix.Fstatat(dir, pw.name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return err
	}
	if st.Ino != pw.tempIno {
		return errors.New("it changed again after it was replaced; it was left as it is")
	}
	var err error
	if pw.swapped {
		err = renameExchange(dir, pw.temp, pw.name)
	} else {
		err = unix.Renameat(dir, pw.backup, dir, pw.name)
	}
	if err != nil {
		return err
	}
	pw.replaced = false
	return nil
}

// removeTemps removes whatever is left at the temporary names: the new
// text of a file not replaced, the old file of one replaced. A file there
// that is neither (never expected) is left alone. It reports whether
// nothing is left.
func (pw *pendingWrite) removeTemps() bool {
	clean := true
	for _, name := range []string{pw.temp, pw.backup} {
		var st unix.Stat_t
		err := unix.Fstatat(int(pw.dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if errors.Is(err, syscall.ENOENT) {
			continue
		}
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || (st.Ino != pw.tempIno && st.Ino != pw.stamp.Inode) ||
			unix.Unlinkat(int(pw.dir.Fd()), name, 0) != nil {
			clean = false
		}
	}
	return clean
}

// errNotRegular is a file that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// hashAt returns the SHA-256 of the regular file name in dir, read without
// following a symlink, and its stat.
func hashAt(dir *os.File, name string) ([sha256.Size]byte, unix.Stat_t, error) {
	var st unix.Stat_t
	fd, err := unix.Openat(int(dir.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return [sha256.Size]byte{}, st, err
	}
	defer unix.Close(fd)
	if err := unix.Fstat(fd, &st); err != nil {
		return [sha256.Size]byte{}, st, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return [sha256.Size]byte{}, st, errNotRegular
	}
	h := sha256.New()
	buf := make([]byte, 256<<10)
	for {
		n, err := unix.Read(fd, buf)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return [sha256.Size]byte{}, st, err
		case n == 0:
			var sum [sha256.Size]byte
			h.Sum(sum[:0])
			return sum, st, nil
		}
		h.Write(buf[:n])
	}
}

// insideFolders reports whether the symlink-free path abs lies inside the
// real root of one of the snapshot's workspace folders.
func insideFolders(snap *workspace.Snapshot, abs string) bool {
	for _, f := range snap.Folders {
		if strings.HasPrefix(abs, strings.TrimSuffix(f.Real, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
