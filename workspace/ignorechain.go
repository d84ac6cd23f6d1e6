package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Which ignore files apply where, and which of them decides, as ripgrep
// has it: the .ignore files first, then the .gitignore files, then the
// repositories' .git/info/exclude; among the files of each kind, the
// deepest whose pattern matches decides. A .gitignore or exclude file
// applies within its repository only: a directory holding .git (a nested
// repository, a submodule) starts a new one, which its parents' .gitignore
// patterns do not reach (a .ignore's still do).

// ignoreKind is the kind of an ignore file, in the order they are applied.
type ignoreKind int

const (
	dotIgnore     ignoreKind = iota // .ignore
	gitignoreFile                   // .gitignore
	gitExclude                      // .git/info/exclude
)

// ignoreChain is the ignore files that apply in a directory, the one read
// last (the deepest; in a directory, .ignore after .gitignore after
// exclude) first, each linking to those read before it: the directories
// below a directory share its chain and add their own in front, so the
// walk's directories, listed in parallel, each carry theirs at the cost of
// one link per ignore file. A link with no file marks the top of a
// repository: the .gitignore and exclude files after it (its parents')
// do not apply below it.
type ignoreChain struct {
	ignore  *ignoreFile // nil at a repository's top
	kind    ignoreKind
	earlier *ignoreChain
}

// ignored applies the ignore files to the path abs (a directory when isDir).
func ignored(ignores *ignoreChain, abs string, isDir bool) bool {
	_, ignore := ignoreMatch(ignores, abs, isDir)
	return ignore
}

// whitelisted reports whether the ignore files re-include the path abs (a
// directory when isDir) with a negated pattern: what makes ripgrep list a
// hidden file it would otherwise skip (`!.gitkeep`).
func whitelisted(ignores *ignoreChain, abs string, isDir bool) bool {
	matched, ignore := ignoreMatch(ignores, abs, isDir)
	return matched && !ignore
}

// ignoreMatch reports whether a pattern of the ignore files decides the
// path abs (a directory when isDir), and whether it ignores it.
func ignoreMatch(ignores *ignoreChain, abs string, isDir bool) (matched, ignore bool) {
	for kind := dotIgnore; kind <= gitExclude; kind++ {
		for c := ignores; c != nil; c = c.earlier {
			if c.ignore == nil {
				if kind == dotIgnore {
					continue
				}
				break // the repository's top: its parents' git rules stop here
			}
			if c.kind != kind {
				continue
			}
			if matched, ignore := c.ignore.match(abs, isDir); matched {
				return true, ignore
			}
		}
	}
	return false, false
}

// loadParentIgnores reads the ignore files of the folder root and of every
// directory between it and the target's base, which apply below them too.
func (w *walker) loadParentIgnores() {
	if !w.opts.Gitignore {
		return
	}
	root := w.folder.Real
	for dir := root; dir != w.target.Base && within(root, dir); {
		_, err := os.Lstat(filepath.Join(dir, ".git"))
		w.ignores = w.loadDirIgnores(w.ignores, dir, err == nil, true, true)
		rel, _ := filepath.Rel(dir, w.target.Base)
		dir = filepath.Join(dir, strings.SplitN(rel, string(filepath.Separator), 2)[0])
	}
}

// loadDirIgnores adds the ignore files of the directory dir to ignores:
// when it holds .git (hasGit), the mark of a repository's top and its
// .git/info/exclude, then its .gitignore and its .ignore when they may be
// there (a listing of the directory tells).
func (w *walker) loadDirIgnores(ignores *ignoreChain, dir string, hasGit, hasGitignore, hasIgnore bool) *ignoreChain {
	if hasGit {
		ignores = &ignoreChain{earlier: ignores}
		ignores = w.loadIgnore(ignores, filepath.Join(dir, ".git", "info", "exclude"), dir, gitExclude)
	}
	if hasGitignore {
		ignores = w.loadIgnore(ignores, joinName(dir, ".gitignore"), dir, gitignoreFile)
	}
	if hasIgnore {
		ignores = w.loadIgnore(ignores, joinName(dir, ".ignore"), dir, dotIgnore)
	}
	return ignores
}

// maxIgnoreFileSize bounds the ignore files read (maxFileSize is for the
// files searched, and may be set lower than a large .gitignore).
const maxIgnoreFileSize = 64 << 20

// loadIgnore reads the ignore file at the absolute path, whose patterns are
// relative to the directory base, and returns ignores with it first; a
// missing or unreadable one is no rule. One with too many patterns ends the
// walk with an error.
func (w *walker) loadIgnore(ignores *ignoreChain, path, base string, kind ignoreKind) *ignoreChain {
	fd, err := w.root.open(w.folder.Rel(path), syscall.O_RDONLY|syscall.O_NONBLOCK, false)
	if err != nil {
		return ignores
	}
	data, _, err := readRegular(fd, w.folder.Rel(path), maxIgnoreFileSize, nil, false)
	syscall.Close(fd)
	if err != nil {
		return ignores
	}
	file, err := newIgnoreFile(data, base)
	if err != nil {
		w.failure.set(fmt.Errorf("the ignore file %s: %w", path, err))
		return ignores
	}
	if w.failure.globs.Add(int64(len(file.globs))) > maxWalkGlobs {
		w.failure.set(fmt.Errorf("the ignore files up to %s hold more than %d patterns with wildcards in all: structls reads at most that many in one search; shorten them, or do not honour ignore files (--no-ignore)", path, maxWalkGlobs))
		return ignores
	}
	return &ignoreChain{file, kind, ignores}
}
