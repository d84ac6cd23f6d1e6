package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"syscall"
	"unicode/utf8"
)

// SkippedDirs collects the directories a walk could not list — permission
// denied, a path longer than the system takes (some 4,000 bytes, a tree
// about 2,000 levels deep), no file handles left — so that a result can
// say which parts of the tree it misses instead of missing them silently;
// ripgrep prints the same errors. A directory that vanished, or turned
// into a file or a symbolic link, while the walk ran is not one of them:
// it is skipped as if it had never been there (a symbolic link is never
// walked). Its methods are safe for concurrent use; a nil *SkippedDirs
// collects nothing.
type SkippedDirs struct {
	mu    sync.Mutex
	named []string // the first maxSkippedNamed, as warnings
	count int
}

// maxSkippedNamed is how many skipped directories the warnings name; the
// others are counted.
const maxSkippedNamed = 20

// add records that the directory at the folder-relative path rel could not
// be listed, unless err says it is gone.
func (s *SkippedDirs) add(rel string, err error) {
	if s == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	if len(s.named) < maxSkippedNamed {
		s.named = append(s.named, fmt.Sprintf("skipped the directory %s: cannot list it: %v%s", shortPath(rel), errorText(err), skippedHint(err)))
	}
}

// addFolder records that the workspace folder at path could not be opened:
// moved or deleted since the session began, whatever the error.
func (s *SkippedDirs) addFolder(path string, err error) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	s.named = append(s.named, fmt.Sprintf("the workspace folder %s cannot be opened: %v; nothing in it was searched (was it moved or deleted? open it again where it is now)", path, errorText(err)))
}

// Warnings are the result's warnings about the skipped directories: one
// for each of the first maxSkippedNamed (in path order), then a count of
// the rest.
func (s *SkippedDirs) Warnings() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.named)
	slices.Sort(out)
	if s.count > len(s.named) {
		out = append(out, fmt.Sprintf("… and %d more directories skipped", s.count-len(s.named)))
	}
	return out
}

// errorText is what went wrong, without the path an *os.PathError repeats.
func errorText(err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err
	}
	return err
}

// skippedHint says what a user can do about a directory left out.
func skippedHint(err error) string {
	switch {
	case errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM):
		return " (give yourself read access, or leave it out with a glob such as -g '!DIR/**')"
	case errors.Is(err, syscall.ENAMETOOLONG):
		return " (the system takes paths of at most 4,095 bytes)"
	case errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE):
		return " (raise the open-files limit, ulimit -n)"
	}
	return ""
}

// shortPath is rel, its middle elided when it is too long to read in a
// message (a directory 2,000 levels deep).
func shortPath(rel string) string {
	const head, tail = 60, 60
	if len(rel) <= head+tail+20 {
		return rel
	}
	from := len(rel) - tail
	for from < len(rel) && !utf8.RuneStart(rel[from]) {
		from++
	}
	return fmt.Sprintf("%s…%s (%d bytes)", CutToBytes(rel, head), rel[from:], len(rel))
}
