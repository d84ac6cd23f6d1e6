package workspace

import (
	"os"
	"path/filepath"
	"syscall"
)

// Confined writing. A write to a file below a workspace folder goes through
// a handle on the file's directory, opened like every read (confined.go):
// below the folder's root, refusing a symlink at any component. Creating,
// renaming and removing files relative to that handle (openat, renameat,
// unlinkat) can never be sent elsewhere by a directory swapped for a
// symlink after the handle was opened: the handle names the directory
// itself, not a path to it.

// OpenDir opens the directory rel (a slash path; "." for the root) below the
// root of folder i, as a handle to create, rename and remove files in (see
// above). The caller closes it.
func (s *Snapshot) OpenDir(i int, rel string) (*os.File, error) {
	root, err := s.root(i)
	if err != nil {
		return nil, err
	}
	return openDirBelow(root, rel, filepath.Join(s.Folders[i].Real, filepath.FromSlash(rel)))
}

// OpenDirBeneath is OpenDir for a folder known only by its real
// (symlink-free) path, such as the journal of an interrupted apply records.
func OpenDirBeneath(real, rel string) (*os.File, error) {
	root, err := openFolderRoot(real)
	if err != nil {
		return nil, err
	}
	defer root.close()
	return openDirBelow(root, rel, filepath.Join(real, filepath.FromSlash(rel)))
}

func openDirBelow(root *folderRoot, rel, name string) (*os.File, error) {
	fd, err := root.open(rel, syscall.O_RDONLY|syscall.O_DIRECTORY, false)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}
