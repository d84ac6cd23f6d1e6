package rewrite

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/structls/structls/workspace"
)

// WriteFiles applies the plan to the files on disk, for clients that cannot
// apply a WorkspaceEdit themselves (the CLI, bare agents).
//
// Nothing is written unless every file passes: Check against the snapshot,
// then, on disk, the file must still hold the previewed text, be a regular
// file (not a symlink, in a directory reached without one) inside a
// workspace folder, and be writable. Each file's new text goes to a
// temporary file in its directory, with the file's mode, which is then
// renamed over it, so a file is always whole, old or new. If a rename
// fails, the files already replaced get their old bytes back.
func (p *Plan) WriteFiles(ctx context.Context, snap *workspace.Snapshot) error {
	return osWriter.write(ctx, p, snap)
}

// writing serialises WriteFiles in the process: two plans touching one file
// must not both pass their checks and then both replace it.
var writing sync.Mutex

// fileWriter writes plans; rename is os.Rename except in tests, which make
// it fail to exercise the rollback.
type fileWriter struct {
	rename func(from, to string) error
}

var osWriter = fileWriter{rename: os.Rename}

// pendingWrite is one file of a plan, ready to be renamed into place.
type pendingWrite struct {
	file *plannedFile
	temp string      // the new text, written next to the file
	old  []byte      // the file's text before the edit
	info fs.FileInfo // the file's mode and owner, which the new text keeps
}

func (w fileWriter) write(ctx context.Context, p *Plan, snap *workspace.Snapshot) error {
	writing.Lock()
	defer writing.Unlock()
	if stale := p.Check(snap); len(stale) > 0 {
		return &StaleError{Files: stale}
	}
	var pending []pendingWrite
	defer func() {
		for _, pw := range pending {
			os.Remove(pw.temp) // those renamed into place are gone already
		}
	}()
	for i := range p.files {
		if err := ctx.Err(); err != nil {
			return err
		}
		pw, err := prepareWrite(snap, &p.files[i])
		var stale *StaleError
		switch {
		case errors.As(err, &stale):
			return err
		case err != nil:
			return fmt.Errorf("the edit was not applied, nothing was written: %w", err)
		}
		pending = append(pending, pw)
	}
	dirs := make([]string, len(pending))
	for i, pw := range pending {
		dirs[i] = filepath.Dir(pw.file.abs)
	}
	if err := syncFilesystems(dirs); err != nil { // the new texts are on disk before any rename
		return fmt.Errorf("the edit was not applied, nothing was written: flushing the new texts to disk: %w", err)
	}
	for i, pw := range pending { // from here on ctx is not heeded: the edit is made whole or undone
		if err := w.rename(pw.temp, pw.file.abs); err != nil {
			return w.rollBack(pending[:i], fmt.Errorf("replacing %s: %w", pw.file.rel, err))
		}
	}
	return nil
}

// prepareWrite checks one file on disk and writes its new text to a
// temporary file beside it.
func prepareWrite(snap *workspace.Snapshot, f *plannedFile) (pendingWrite, error) {
	if !insideFolders(snap, f.abs) {
		return pendingWrite{}, fmt.Errorf("%s is outside the workspace folders: open its folder, then preview the edit again", f.rel)
	}
	dir := filepath.Dir(f.abs)
	if real, err := filepath.EvalSymlinks(dir); err != nil || real != dir {
		return pendingWrite{}, fmt.Errorf("the directory of %s is no longer where the preview found it (moved, or now a symlink): preview the edit again", f.rel)
	}
	info, err := os.Lstat(f.abs)
	switch {
	case errors.Is(err, fs.ErrNotExist) && f.version != nil:
		return pendingWrite{}, fmt.Errorf("%s exists only in the editor, never saved: save it, then preview the edit again", f.rel)
	case errors.Is(err, fs.ErrNotExist):
		return pendingWrite{}, &StaleError{Files: []StaleFile{{Path: f.rel, Reason: "deleted since the preview"}}}
	case err != nil:
		return pendingWrite{}, fmt.Errorf("%s cannot be checked: %w", f.rel, err)
	case !info.Mode().IsRegular():
		return pendingWrite{}, fmt.Errorf("%s is no longer a regular file (a symlink?): preview the edit again", f.rel)
	case info.Mode().Perm()&0o200 == 0:
		return pendingWrite{}, fmt.Errorf("%s is read-only (mode %04o): make it writable (chmod u+w) or leave it out of paths, then preview again",
			f.rel, info.Mode().Perm())
	}
	old, err := readNoFollow(f.abs)
	if err != nil {
		return pendingWrite{}, fmt.Errorf("%s cannot be read: %w", f.rel, err)
	}
	if sha256.Sum256(old) != f.hash {
		reason := "changed on disk since the preview"
		if f.version != nil {
			reason = "its text on disk differs from the open document the preview saw: save it first"
		}
		return pendingWrite{}, &StaleError{Files: []StaleFile{{Path: f.rel, Reason: reason}}}
	}
	temp, err := writeTemp(f.abs, f.content, info)
	if err != nil {
		return pendingWrite{}, fmt.Errorf("%s cannot be written (its new text goes to a temporary file in the same directory first): %w; make the directory writable, or leave the file out of paths, then preview again", f.rel, err)
	}
	return pendingWrite{file: f, temp: temp, old: old, info: info}, nil
}

// rollBack restores the files already replaced and returns cause, with the
// files that could not be restored, if any.
func (w fileWriter) rollBack(done []pendingWrite, cause error) error {
	var lost []string
	for _, pw := range done {
		temp, err := writeTemp(pw.file.abs, pw.old, pw.info)
		if err == nil {
			if err = w.rename(temp, pw.file.abs); err != nil {
				os.Remove(temp)
			}
		}
		if err != nil {
			lost = append(lost, fmt.Sprintf("%s (%v)", pw.file.rel, err))
		}
	}
	if len(lost) > 0 {
		return fmt.Errorf("%w; the files written before it could not all be restored, these hold the new text: %s", cause, strings.Join(lost, ", "))
	}
	return fmt.Errorf("%w; the %d file(s) written before it were restored, so nothing changed", cause, len(done))
}

// maxTempBase is how much of a file's name its temporary file's name repeats.
const maxTempBase = 200

// writeTemp writes content to a new temporary file beside path, with the
// mode and owner of like (path's current state), and returns its name. The
// caller makes it durable (syncFilesystems).
func writeTemp(path string, content []byte, like fs.FileInfo) (string, error) {
	base := filepath.Base(path)
	base = base[:min(len(base), maxTempBase)] // the whole name must fit in NAME_MAX (255 bytes)
	f, err := os.CreateTemp(filepath.Dir(path), "."+base+".structls-*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(like.Mode().Perm())
	}
	if err == nil {
		err = keepOwner(f, like)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// keepOwner gives the temporary file the owner and group of the file it
// replaces, when they differ from the ones it was created with.
func keepOwner(temp *os.File, original fs.FileInfo) error {
	want, ok := original.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	info, err := temp.Stat()
	if err != nil {
		return err
	}
	if got, ok := info.Sys().(*syscall.Stat_t); ok && (got.Uid != want.Uid || got.Gid != want.Gid) {
		if err := temp.Chown(int(want.Uid), int(want.Gid)); err != nil {
			return fmt.Errorf("keeping its owner: %w", err)
		}
	}
	return nil
}

// readNoFollow reads a file without following a symlink in its last element.
func readNoFollow(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
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
