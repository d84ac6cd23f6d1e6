package rules

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Snapshot files are written below the project directory only: the
// snapshot directory and the rule id must name a place inside it, every
// directory on the way is opened below the project (os.Root) and refused
// when it is a symbolic link, the new content goes to a fresh temp file
// created exclusively, and a rename puts it in place. A planted link, a
// snapshotDir of ../../elsewhere or an id of ../../x cannot send the write
// outside the project.

// snapshotFile returns the snapshot file of a test case relative to the
// project directory, or an error naming the field that leaves it.
func (p *Project) snapshotFile(tc TestConfig, c ruleTestCase) (string, error) {
	if c.id == "" || c.id == "." || c.id == ".." || strings.ContainsAny(c.id, `/\`) {
		return "", &Error{File: c.file, Field: "id", Message: fmt.Sprintf("the rule id `%s` cannot name a snapshot file (it holds a path separator or is . or ..): give the rule an id without / or \\", c.id)}
	}
	dir, err := p.insideProject(tc.SnapshotDir)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, c.id+"-snapshot.yml"), nil
}

// insideProject returns dir relative to the project directory, or an
// error when it is not below it.
func (p *Project) insideProject(dir string) (string, error) {
	rel, err := filepath.Rel(p.Dir, dir)
	if err != nil || !filepath.IsLocal(rel) {
		return "", &Error{File: p.ConfigFile, Field: "testConfigs.snapshotDir",
			Message: fmt.Sprintf("the snapshot directory %s is outside the project %s: snapshots are written inside the project only; give a snapshotDir (and testDir) below it", dir, p.Dir)}
	}
	return rel, nil
}

// readSnapshotFile reads a snapshot file below the project directory
// (nil, nil when it does not exist).
func (p *Project) readSnapshotFile(rel string) ([]byte, error) {
	dir, name := filepath.Split(rel)
	sub, err := p.openSnapshotDir(dir, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer sub.Close()
	if err := refuseLink(sub, name, filepath.Join(p.Dir, rel)); err != nil {
		return nil, err
	}
	f, err := sub.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var src []byte
	if err == nil {
		src, err = readYAML(f, filepath.Join(p.Dir, rel))
		f.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("reading snapshot file %s: %w", filepath.Join(p.Dir, rel), err)
	}
	return src, nil
}

// writeSnapshotFile replaces the snapshot file rel (relative to the
// project directory) with content, creating its directories.
func (p *Project) writeSnapshotFile(rel string, content []byte) error {
	dir, name := filepath.Split(rel)
	sub, err := p.openSnapshotDir(dir, true)
	if err != nil {
		return err
	}
	defer sub.Close()
	if err := refuseLink(sub, name, filepath.Join(p.Dir, rel)); err != nil {
		return err
	}
	tmp, f, err := createTemp(sub, name)
	if err != nil {
		return fmt.Errorf("writing snapshot file %s: %w", filepath.Join(p.Dir, rel), err)
	}
	_, err = f.Write(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = sub.Rename(tmp, name)
	}
	if err != nil {
		_ = sub.Remove(tmp)
		return fmt.Errorf("writing snapshot file %s: %w", filepath.Join(p.Dir, rel), err)
	}
	return nil
}

// openSnapshotDir opens dir (relative to the project directory) one
// component at a time, refusing a component that is not a plain directory
// and, with create, making the missing ones.
func (p *Project) openSnapshotDir(dir string, create bool) (*os.Root, error) {
	cur, err := os.OpenRoot(p.Dir)
	if err != nil {
		return nil, fmt.Errorf("opening the project directory: %w", err)
	}
	walked := p.Dir
	for _, part := range strings.Split(filepath.Clean(dir), string(filepath.Separator)) {
		if part == "." || part == "" {
			continue
		}
		walked = filepath.Join(walked, part)
		info, err := cur.Lstat(part)
		if errors.Is(err, fs.ErrNotExist) && create {
			if err = cur.Mkdir(part, 0o755); err == nil || errors.Is(err, fs.ErrExist) {
				info, err = cur.Lstat(part)
			}
		}
		if err == nil && !info.IsDir() {
			err = fmt.Errorf("not using %s for snapshots: it is %s, not a directory; make it a plain directory inside the project", walked, fileKind(info))
		} else if err != nil {
			err = fmt.Errorf("opening the snapshot directory %s: %w", walked, err)
		}
		var next *os.Root
		if err == nil {
			next, err = cur.OpenRoot(part)
		}
		cur.Close()
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// refuseLink fails when name in dir exists and is not a regular file.
func refuseLink(dir *os.Root, name, shown string) error {
	if info, err := dir.Lstat(name); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("not using the snapshot %s: it is %s; remove it so that a regular file can take its place", shown, fileKind(info))
	}
	return nil
}

// createTemp creates a new file next to name with a random name, failing
// rather than opening anything already there (a planted link included).
func createTemp(dir *os.Root, name string) (string, *os.File, error) {
	var err error
	for range 10 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		tmp := "." + name + "." + hex.EncodeToString(b[:]) + ".tmp"
		var f *os.File
		f, err = dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			return tmp, f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	return "", nil, err
}

// fileKind names what a non-regular file is, for messages.
func fileKind(info fs.FileInfo) string {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return "a symbolic link"
	case info.IsDir():
		return "a directory"
	case info.Mode().IsRegular():
		return "a regular file"
	}
	return "a special file"
}
