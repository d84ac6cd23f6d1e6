package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Target is one resolved entry of a command's `paths`: a file or a directory
// inside a workspace folder, optionally narrowed by a glob.
type Target struct {
	Input  string    // the entry as the user wrote it
	Folder int       // index into Snapshot.Folders
	Base   string    // symlink-free absolute path of the file or directory
	IsDir  bool      // Base is a directory
	Glob   string    // slash-separated glob relative to Base; "" = everything
	Lines  []LineSel // line ranges (search only); nil = the whole file
}

// LineSel is an inclusive range of 1-based line numbers.
type LineSel struct{ From, To int }

// Contains reports whether 1-based line n is in the selection.
func (l LineSel) Contains(n int) bool { return n >= l.From && n <= l.To }

// PathError is a `paths` entry that cannot be used; its message says why and what to do.
type PathError struct{ Msg string }

func (e *PathError) Error() string { return e.Msg }

func pathErrorf(format string, args ...any) error {
	return &PathError{Msg: fmt.Sprintf(format, args...)}
}

var lineSelSuffix = regexp.MustCompile(`:(\d+(?:[-+]\d+)?(?:,\d+(?:[-+]\d+)?)*)$`)

// ResolvePaths turns the `paths` entries of a command into Targets.
//
// Entries are files, directories, globs (`*.ts` = direct children, `**/*.ts`
// recursive) or file:// URIs, relative to the first workspace folder unless
// absolute. No entries means every folder. With allowLines, a file entry may
// end in a line selection (`a.go:10-20`, `a.go:10+5`, `a.go:1-3,9-12`).
//
// Confinement: an entry that resolves outside every workspace folder —
// lexically (`..`, an absolute path) or through a symlink — is an error and is
// never read. Entries whose path does not exist are listed in Missing; if
// every entry is missing, that is an error too.
func (s *Snapshot) ResolvePaths(entries []string, allowLines bool) (Resolved, error) {
	var r Resolved
	if len(s.Folders) == 0 {
		return r, pathErrorf("the workspace has no folders: open a folder (or pass --root) first")
	}
	if len(entries) == 0 {
		for i, f := range s.Folders {
			r.Targets = append(r.Targets, Target{Input: f.Path, Folder: i, Base: f.Real, IsDir: true})
		}
		return r, nil
	}
	for _, raw := range entries {
		t, err := s.resolveOne(raw, allowLines)
		var notFound *notFoundError
		var skipped *skippedError
		switch {
		case errors.As(err, &notFound):
			r.Missing = append(r.Missing, notFound.input)
		case errors.As(err, &skipped):
			r.Warnings = append(r.Warnings, skipped.msg)
		case err != nil:
			return Resolved{}, err
		default:
			r.Targets = append(r.Targets, t)
		}
	}
	if len(r.Targets) == 0 {
		var reasons []string
		if len(r.Missing) > 0 {
			hint := ""
			if len(r.Missing) > 1 {
				hint = " (each entry of `paths` must exist relative to the first workspace folder; pass each path as its own array element)"
			}
			reasons = append(reasons, fmt.Sprintf("path not found: %s%s", strings.Join(r.Missing, ", "), hint))
		}
		return Resolved{}, pathErrorf("%s", strings.Join(append(reasons, r.Warnings...), "; "))
	}
	return r, nil
}

// Resolved is what ResolvePaths made of a command's `paths`.
type Resolved struct {
	Targets  []Target // the entries that can be searched
	Missing  []string // entries whose path does not exist, as the user wrote them
	Warnings []string // entries skipped for a reason the user should hear (not a regular file, …)
}

type notFoundError struct{ input string }

func (e *notFoundError) Error() string { return "path not found: " + e.input }

// skippedError is an entry that exists but is not searched (a named pipe, a
// socket, a device): msg is the warning the user gets.
type skippedError struct{ msg string }

func (e *skippedError) Error() string { return e.msg }

// fileKind names what a non-regular, non-directory file is.
func fileKind(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

func (s *Snapshot) resolveOne(raw string, allowLines bool) (Target, error) {
	entry := strings.TrimSpace(raw)
	if len(entry) >= 2 && entry[0] == '"' && entry[len(entry)-1] == '"' {
		entry = strings.TrimSpace(entry[1 : len(entry)-1])
	}
	if entry == "" {
		return Target{}, pathErrorf("`paths` must contain non-empty paths or globs")
	}
	abs, err := s.absolute(entry)
	if err != nil {
		return Target{}, err
	}
	var lines []LineSel
	if m := lineSelSuffix.FindStringSubmatchIndex(abs); m != nil {
		if _, statErr := os.Lstat(abs); statErr != nil { // a real file named "a:1-2" wins
			if !allowLines {
				return Target{}, pathErrorf("%q: line-range selectors are only supported by search", raw)
			}
			if lines, err = parseLineSel(abs[m[2]:m[3]]); err != nil {
				return Target{}, pathErrorf("%q: %v", raw, err)
			}
			abs = abs[:m[0]]
		}
	}
	// Find the folder first, then look for glob characters only below it:
	// a folder's own path may hold "{", "[" or "*".
	fi, root := folderOf(s.Folders, abs)
	if fi < 0 {
		return Target{}, pathErrorf("%q is outside the workspace folders (%s); pass a path inside them, relative to %s",
			raw, s.folderList(), s.Folders[0].Path)
	}
	relBase, glob := splitGlob(strings.TrimPrefix(abs, root))
	base := root + relBase
	if lines != nil && glob != "" {
		return Target{}, pathErrorf("line-range selector requires a single file, not a glob: %s", raw)
	}
	// Re-root lexically on the folder's real path, then evaluate symlinks.
	lexical := filepath.Join(s.Folders[fi].Real, strings.TrimPrefix(base, root))
	real, err := filepath.EvalSymlinks(lexical)
	if errors.Is(err, fs.ErrNotExist) && glob == "" && s.docs[filepath.Join(s.Folders[fi].Path, strings.TrimPrefix(base, root))] != nil {
		// An open document not saved to disk yet: its (lexical) path is all there is.
		return Target{Input: raw, Folder: fi, Base: lexical, Lines: lines}, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		if lines != nil {
			return Target{}, pathErrorf("path not found for line-range selector: %s", raw)
		}
		return Target{}, &notFoundError{input: raw}
	}
	if err != nil {
		return Target{}, pathErrorf("%q cannot be resolved: %v", raw, err)
	}
	if realFolder := folderReal(s.Folders, real); realFolder < 0 {
		return Target{}, pathErrorf("%q resolves through a symlink to %s, outside the workspace folders; it is not searched", raw, real)
	} else {
		fi = realFolder
	}
	info, err := os.Stat(real)
	if err != nil {
		return Target{}, pathErrorf("%q cannot be read: %v", raw, err)
	}
	if !info.IsDir() && !info.Mode().IsRegular() {
		return Target{}, &skippedError{msg: fmt.Sprintf("skipped %q: it is %s, which is never read; name regular files or directories",
			raw, fileKind(info.Mode()))}
	}
	if lines != nil && info.IsDir() {
		return Target{}, pathErrorf("line-range selector requires a single file: %s is a directory", raw)
	}
	if glob != "" && !info.IsDir() {
		return Target{}, pathErrorf("%q: the part before the glob must be a directory", raw)
	}
	return Target{Input: raw, Folder: fi, Base: real, IsDir: info.IsDir(), Glob: glob, Lines: lines}, nil
}

// absolute returns the clean absolute form of a path entry or file:// URI.
func (s *Snapshot) absolute(entry string) (string, error) {
	if IsFileURI(entry) {
		p, err := URIToPath(entry)
		if err != nil {
			return "", pathErrorf("%v", err)
		}
		return p, nil
	}
	if strings.Contains(entry, "://") {
		return "", pathErrorf("%q: only file:// URIs and paths are supported", entry)
	}
	if filepath.IsAbs(entry) {
		return filepath.Clean(entry), nil
	}
	return filepath.Join(s.Folders[0].Path, filepath.FromSlash(entry)), nil
}

func (s *Snapshot) folderList() string {
	var names []string
	for _, f := range s.Folders {
		names = append(names, f.Path)
	}
	return strings.Join(names, ", ")
}

// splitGlob splits a path below a folder ("" or starting with "/") at its
// first segment holding a glob character: "/src/**/*.ts" → ("/src", "**/*.ts").
func splitGlob(rel string) (base, glob string) {
	segs := strings.Split(filepath.ToSlash(rel), "/")
	for i, seg := range segs {
		if strings.ContainsAny(seg, "*?[{") {
			return filepath.FromSlash(strings.Join(segs[:i], "/")), strings.Join(segs[i:], "/")
		}
	}
	return rel, ""
}

// parseLineSel parses "10-20", "10+5" and comma lists of them.
func parseLineSel(s string) ([]LineSel, error) {
	var out []LineSel
	for _, part := range strings.Split(s, ",") {
		var sel LineSel
		var err error
		switch {
		case strings.Contains(part, "-"):
			a, b, _ := strings.Cut(part, "-")
			sel.From, err = strconv.Atoi(a)
			if err == nil {
				sel.To, err = strconv.Atoi(b)
			}
		case strings.Contains(part, "+"):
			a, b, _ := strings.Cut(part, "+")
			var n int
			sel.From, err = strconv.Atoi(a)
			if err == nil {
				n, err = strconv.Atoi(b)
			}
			sel.To = sel.From + n
		default:
			sel.From, err = strconv.Atoi(part)
			sel.To = sel.From
		}
		if err != nil || sel.From < 1 || sel.To < sel.From {
			return nil, fmt.Errorf("bad line range %q: use 1-based ranges like :50-100, :50+10 or :5-16,960-973", part)
		}
		out = append(out, sel)
	}
	return out, nil
}
