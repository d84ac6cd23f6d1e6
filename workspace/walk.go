package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
)

// File is one candidate file of a search, inside a workspace folder.
type File struct {
	Folder int       // index into Snapshot.Folders
	Abs    string    // symlink-free absolute path
	Rel    string    // slash path relative to the folder
	Doc    *Document // the open document, when the editor has the file open
	Lines  []LineSel // line selection of the target that named it
	Named  bool      // named in `paths` itself, not found by walking a directory
	root   string    // the folder's Path, for URI
	// onLocalDisk: listed in a directory on a local disk filesystem, so its
	// bytes are read with raw system calls (fastcalls_linux.go).
	onLocalDisk bool
}

// URI returns the URI the client knows the file by (computed on demand:
// most walked files never need one).
func (f File) URI() string {
	if f.Doc != nil {
		return f.Doc.URI
	}
	return PathToURI(f.Path())
}

// Path returns the absolute path the client knows the file by: below its
// folder's Path, as the client named the folder (Abs is below its Real,
// symlinks evaluated). Watched-file events name files by this path.
func (f File) Path() string {
	return filepath.Join(f.root, filepath.FromSlash(f.Rel))
}

// WalkOptions are the walking rules of a command (its contract: docs/protocol.md).
type WalkOptions struct {
	Globs     []string // include globs, and `!`-prefixed exclude globs
	Gitignore bool     // honour .gitignore, .ignore and .git/info/exclude
	Hidden    bool     // include dot files and directories
	// Skipped, when not nil, collects the directories the walk could not
	// list, for the result's warnings.
	Skipped *SkippedDirs
}

// Walk lists the files the targets name, sorted by folder then path, each
// at most once. See WalkFunc for the rules.
func (s *Snapshot) Walk(ctx context.Context, targets []Target, opts WalkOptions) ([]File, error) {
	var files []File
	err := s.WalkFunc(ctx, targets, opts, func(f File) { files = append(files, f) })
	SortFiles(files)
	return files, err
}

// SortFiles sorts files by folder, then path: the order of every result.
func SortFiles(files []File) {
	slices.SortFunc(files, CompareFiles)
}

// CompareFiles orders two files by folder, then path, as SortFiles does.
func CompareFiles(a, b File) int {
	if a.Folder != b.Folder {
		return a.Folder - b.Folder
	}
	return strings.Compare(a.Rel, b.Rel)
}

// WalkFunc calls emit, from the calling goroutine, for each file the targets
// name, each at most once, in no particular order (the directories are
// listed in parallel: walk_dirs.go), so that the work on the files can start
// while the walk goes on.
//
// Rules, as a ripgrep user expects: .git is never entered; ignore files are
// honoured (nested ones, negations, and those of the parent directories up to
// the workspace folder); symlinks are never followed; `node_modules` is
// skipped unless a path or glob names it; Settings.Exclude and `globs` filter
// files. A file named explicitly is searched even if ignored or hidden.
// structls's own temporary files (IsTempName) are never listed, named or not.
// Open documents whose file does not exist on disk yet are included when a
// target covers them. WalkFunc stops early, returning ctx.Err(), when ctx ends.
func (s *Snapshot) WalkFunc(ctx context.Context, targets []Target, opts WalkOptions, emit func(File)) error {
	filter := newGlobFilter(opts.Globs, s.Settings.Exclude)
	allowNodeModules := mentionsNodeModules(opts.Globs, targets, s.Folders)
	var seen map[string]bool // only targets that overlap can name a file twice
	if len(targets) > 1 {
		seen = map[string]bool{}
	}
	add := func(t Target, abs, rel string, named, local bool) {
		if seen[abs] || IsTempName(filepath.Base(abs)) { // structls's own temporary files are never searched
			return
		}
		if seen != nil {
			seen[abs] = true
		}
		f := s.Folders[t.Folder]
		var doc *Document
		if len(s.docs) > 0 {
			doc = s.docs[filepath.Join(f.Path, filepath.FromSlash(rel))]
		}
		emit(File{Folder: t.Folder, Abs: abs, Rel: rel, Doc: doc, Lines: t.Lines, Named: named, root: f.Path, onLocalDisk: local})
	}
	for _, t := range targets {
		if !t.IsDir {
			add(t, t.Base, s.Folders[t.Folder].Rel(t.Base), true, false)
			continue
		}
		wctx, stop := context.WithCancel(ctx)
		w := walker{snap: s, ctx: wctx, target: t, folder: s.Folders[t.Folder], opts: opts, filter: filter,
			allowNodeModules: allowNodeModules, maxDepth: globDepth(t.Glob), failure: &walkFailure{stop: stop}}
		err := w.walk(func(abs, rel string, local bool) { add(t, abs, rel, false, local) })
		stop()
		if err != nil {
			return err
		}
		for path := range s.docs { // unsaved new files, not on disk yet
			f := s.Folders[t.Folder]
			if _, err := os.Lstat(path); err == nil || !within(f.Path, path) {
				continue
			}
			rel, _ := filepath.Rel(f.Path, path)
			abs := filepath.Join(f.Real, rel)
			if within(t.Base, abs) && w.keepFile(abs, filepath.ToSlash(rel)) {
				add(t, abs, filepath.ToSlash(rel), false, false)
			}
		}
	}
	return nil
}

// walker walks one directory target. Every directory and ignore file is
// opened through root, never following a symlink (see confined.go).
type walker struct {
	snap             *Snapshot
	ctx              context.Context
	target           Target
	folder           Folder
	root             *folderRoot
	opts             WalkOptions
	filter           globFilter
	allowNodeModules bool
	maxDepth         int          // -1: unlimited
	ignores          *ignoreChain // those of the folder and of the target's parents (loadParentIgnores)
	failure          *walkFailure // what ended the walk early, other than its caller's context
}

// walkFailure is an error that ends a walk (an ignore file too large to
// read): the first one is kept, and the walk's context is cancelled so that
// every goroutine listing directories stops.
type walkFailure struct {
	once sync.Once
	err  error
	stop context.CancelFunc
	// globs counts the compiled patterns of the walk's ignore files: each
	// file is bounded (maxWildcardPatterns), and so is their sum
	// (maxWalkGlobs), as twenty nested files of 100,000 made 1.2 GB.
	globs atomic.Int64
}

func (f *walkFailure) set(err error) {
	f.once.Do(func() {
		f.err = err
		f.stop()
	})
}

// walk walks the target's directory; emit is called, from the calling
// goroutine, with the absolute and the folder-relative (slash) path of every
// file kept, and whether its directory is on a local disk (onLocalDisk). A
// folder whose root cannot be opened any more (moved, deleted) is skipped,
// and named in the warnings.
func (w *walker) walk(emit func(abs, rel string, local bool)) error {
	root, err := w.snap.root(w.target.Folder)
	if err != nil {
		w.opts.Skipped.addFolder(w.folder.Path, err)
		return nil
	}
	w.root = root
	w.loadParentIgnores()
	top := dirTask{abs: w.target.Base, rel: w.folder.Rel(w.target.Base), ignores: w.ignores}
	return w.walkDirs(top, emit)
}

// dir lists one directory (see dirTask) and returns the files it keeps and
// the directories to walk below it; nothing once the walk's context has ended.
// buf is the listing's buffer, the walking goroutine's own.
func (w *walker) dir(t dirTask, buf []byte) ([]walkedFile, []dirTask) {
	if w.ctx.Err() != nil {
		return nil, nil
	}
	entries, local, err := w.list(t.rel, buf)
	if err != nil {
		w.opts.Skipped.add(t.rel, err) // skipped, and named in the warnings, as ripgrep names them
		return nil, nil
	}
	if testHookAfterList != nil {
		testHookAfterList(t.abs)
	}
	ignores := t.ignores
	if w.opts.Gitignore {
		// Only open the ignore files the listing shows (saves two failed opens a directory).
		shows := func(name string) bool {
			_, found := slices.BinarySearchFunc(entries, name, func(e dirEntry, n string) int { return strings.Compare(e.name, n) })
			return found
		}
		ignores = w.loadDirIgnores(ignores, t.abs, shows(".git"), shows(".gitignore"), shows(".ignore"))
	}
	var files []walkedFile
	var dirs []dirTask
	for _, e := range entries {
		if e.kind == entryOther {
			continue // symlinks, devices, sockets and pipes are never searched
		}
		if !w.opts.Hidden && strings.HasPrefix(e.name, ".") &&
			!(w.opts.Gitignore && whitelisted(ignores, joinName(t.abs, e.name), e.kind == entryDir)) {
			continue // hidden, unless an ignore file re-includes it (`!.gitkeep`), as ripgrep has it
		}
		entryRel := joinName(t.rel, e.name)
		if e.kind == entryFile {
			// The glob filter first: it needs no absolute path, and drops most files of a typed search.
			if w.filter.keeps(entryRel) {
				if abs := joinName(t.abs, e.name); w.inTargetNotIgnored(ignores, abs) {
					files = append(files, walkedFile{abs: abs, rel: entryRel, local: local})
				}
			}
			continue
		}
		abs := joinName(t.abs, e.name)
		if e.name == ".git" || (e.name == "node_modules" && !w.allowNodeModules) ||
			(w.maxDepth >= 0 && t.depth+1 >= w.maxDepth) || ignored(ignores, abs, true) ||
			w.filter.excludesDir(entryRel) {
			continue
		}
		dirs = append(dirs, dirTask{abs: abs, rel: entryRel, depth: t.depth + 1, ignores: ignores})
	}
	return files, dirs
}

// joinName is filepath.Join(dir, name) for a clean dir (absolute, or a
// folder-relative slash path where "." is the root) and a name from a
// listing (no separator, never "." or ".."), with one allocation.
func joinName(dir, name string) string {
	switch {
	case dir == ".":
		return name
	case strings.HasSuffix(dir, "/"): // "/" itself
		return dir + name
	}
	return dir + "/" + name
}

// testHookAfterList, when set by a test, runs after each directory is listed
// and before anything below it is opened: the window of a symlink swap.
var testHookAfterList func(dir string)

// dirEntry is one entry of a directory listing.
type dirEntry struct {
	name string
	kind entryKind
}

type entryKind uint8

const (
	entryOther entryKind = iota // a symlink, device, socket or pipe: never walked
	entryFile                   // a regular file
	entryDir
)

// direntBufSize is the size of the buffer a walk lists directories with.
const direntBufSize = 32 << 10

// list returns the entries of the directory at the folder-relative path rel,
// sorted by name, reading them from a handle opened through the folder root,
// and whether the directory is on a local disk (onLocalDisk). The directory
// is opened with an ordinary system call: it may be a mount point.
func (w *walker) list(rel string, buf []byte) ([]dirEntry, bool, error) {
	fd, err := w.root.open(rel, syscall.O_RDONLY|syscall.O_DIRECTORY, false)
	if err != nil {
		return nil, false, err
	}
	defer syscall.Close(fd)
	local := onLocalDisk(fd)
	entries, err := readDirFD(fd, buf, local)
	slices.SortFunc(entries, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	return entries, local, err
}

// keepFile applies the glob filters, the target glob and the ignore files to a file.
func (w *walker) keepFile(abs, rel string) bool {
	return w.filter.keeps(rel) && w.inTargetNotIgnored(w.ignores, abs)
}

// inTargetNotIgnored applies the target glob and the ignore files to a file.
func (w *walker) inTargetNotIgnored(ignores *ignoreChain, abs string) bool {
	if w.target.Glob != "" {
		relToBase, err := filepath.Rel(w.target.Base, abs)
		if err != nil {
			return false
		}
		if ok, _ := doublestar.Match(w.target.Glob, filepath.ToSlash(relToBase)); !ok {
			return false
		}
	}
	return !ignored(ignores, abs, false)
}

// globDepth is how many directory levels a target glob can reach: "*.go" only
// the base directory, "a/*.go" one below; -1 when "**" makes it unlimited.
func globDepth(glob string) int {
	if glob == "" || strings.Contains(glob, "**") {
		return -1
	}
	return strings.Count(glob, "/") + 1
}

// mentionsNodeModules reports whether a glob or a target names a
// node_modules directory, which walking then enters. A target's path is
// looked at below its folder: a workspace that is itself inside a
// node_modules directory (/home/me/node_modules/pkg) still skips those
// below it.
func mentionsNodeModules(globs []string, targets []Target, folders []Folder) bool {
	for _, g := range globs {
		if strings.Contains(g, "node_modules") {
			return true
		}
	}
	for _, t := range targets {
		if strings.Contains(folders[t.Folder].Rel(t.Base), "node_modules") || strings.Contains(t.Glob, "node_modules") {
			return true
		}
	}
	return false
}
