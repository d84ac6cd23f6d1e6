package workspace

import (
	"context"
	"errors"
	"fmt"
)

// ErrNotOneFile is ReadNamed's answer when its entry names no single file
// of the workspace: a folder, a glob, or a name the walk never lists.
var ErrNotOneFile = errors.New("not a single file")

// ReadError is a file ReadNamed found but could not read: too large,
// binary, unreadable or gone. Err is ReadFile's error.
type ReadError struct {
	File File
	Err  error
}

func (e *ReadError) Error() string { return fmt.Sprintf("cannot read %s: %v", e.File.Rel, e.Err) }

func (e *ReadError) Unwrap() error { return e.Err }

// ReadNamed reads the one file entry names (a path or file:// URI inside a
// workspace folder), from the overlay when the editor has it open, as a
// command that works on one document needs. Its errors: ResolvePaths's (a
// *PathError for an entry outside the folders or missing), ErrNotOneFile, a
// *ReadError, or ctx's. A folder is refused before it is walked.
func (s *Snapshot) ReadNamed(ctx context.Context, entry string) (File, []byte, error) {
	resolved, err := s.ResolvePaths([]string{entry}, false)
	if err != nil {
		return File{}, nil, err
	}
	if len(resolved.Targets) != 1 || resolved.Targets[0].IsDir {
		return File{}, nil, ErrNotOneFile
	}
	files, err := s.Walk(ctx, resolved.Targets, WalkOptions{Hidden: true})
	if err != nil {
		return File{}, nil, err
	}
	if len(files) != 1 || !files[0].Named {
		return File{}, nil, ErrNotOneFile
	}
	content, err := s.ReadFile(files[0], nil)
	if err != nil {
		return files[0], nil, &ReadError{File: files[0], Err: err}
	}
	return files[0], content, nil
}
