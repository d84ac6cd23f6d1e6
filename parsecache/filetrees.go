// Package parsecache is the parse cache as the engines share it between
// queries: syntax.Cache, which keeps flat trees by language and content, and
// FileTrees, which remembers for each file on disk the stamp it had when its
// tree was cached, so that a warm query takes the tree without reading the
// file. A long-lived server holds one Trees and hands it to every query and
// to background parsing (package warmup); a one-shot command hands the zero
// Trees, which keeps nothing.
//
// It sits between syntax (which knows trees, not files) and workspace (which
// knows files, not trees), so that both the search engine and background
// parsing can use it without importing each other.
package parsecache

import (
	"bytes"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"

	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// Trees is what a long-lived server keeps between queries: the parse cache,
// and which content each file on disk had when its tree was cached. The
// zero Trees keeps nothing (a one-shot search, as the CLI's).
type Trees struct {
	Cache *syntax.Cache
	Files *FileTrees
	// Background says a background run is filling the cache: a query
	// then caches the trees of the files on disk it parses only while the
	// cache has room, pushing none out (syntax.Cache.ParseIfRoom), and
	// parses the others only as far as its pattern needs, as with no
	// cache; while there is room it also parses and caches the files its
	// pattern cannot match (syntax.Cache.Fill). So the second query of a
	// session is warm whatever the state of background parsing and
	// whatever files it needs, and a full cache costs a query no more than
	// a one-shot search.
	Background bool
}

// FileTrees remembers, for each file on disk whose tree went into the parse
// cache, the stamp the file had when it was read (workspace.FileStamp) and
// which tree that was. A later query stats the file and, while the stamp is
// unchanged, takes the cached tree without reading the file: a warm query
// reads no file it has read before, only stats it.
//
// No result of a changed file is served from it: a stamp is remembered only
// when the file had last changed StampSlack before it was read (Settled),
// so a later write shows in the stamp; open documents never come from it
// (they are the overlay's, whose text the cache is keyed by); and the
// server forgets a file on every watched-file event and save that names it
// (Forget), whatever its stamp says. A FileTrees is safe for concurrent use;
// a nil one remembers nothing.
type FileTrees struct {
	// Now is the clock stamps are judged Settled by; nil is time.Now.
	// Tests move it forward to trust files they have just written.
	Now func() time.Time

	mu     sync.Mutex
	files  map[string]fileTree // by File.Path
	served atomic.Int64        // trees served without reading the file, for tests
}

// fileTree is what a FileTrees knows of one file.
type fileTree struct {
	lang  *sitter.Language // the grammar it was parsed with (a file named in paths may be searched as any)
	stamp workspace.FileStamp
	key   syntax.TreeKey
	tree  weak.Pointer[syntax.Tree] // the very tree cached for the content read
}

// NewFileTrees returns an empty FileTrees.
func NewFileTrees() *FileTrees { return &FileTrees{files: map[string]fileTree{}} }

// Tree returns the cached tree in lang of the file on disk f (not an open
// document) when its stamp is the one remembered, or nil: then the caller
// reads the file and parses it (Remember). Forgotten are files whose tree
// the cache has dropped.
func (ft *FileTrees) Tree(snap *workspace.Snapshot, f workspace.File, lang *sitter.Language, cache *syntax.Cache) *syntax.Tree {
	tree := ft.lookup(snap, f, lang, cache.Cached)
	if tree != nil {
		ft.served.Add(1)
	}
	return tree
}

// Known reports whether Tree would return a tree, without counting the
// tree as used by the current query: for background parsing, which passes
// over such a file unread.
func (ft *FileTrees) Known(snap *workspace.Snapshot, f workspace.File, lang *sitter.Language, cache *syntax.Cache) bool {
	return ft.lookup(snap, f, lang, cache.Peek) != nil
}

// Served returns how many trees Tree has served without reading the file:
// for tests.
func (ft *FileTrees) Served() int64 { return ft.served.Load() }

// lookup is Tree and Known, taking the tree from the cache with get.
func (ft *FileTrees) lookup(snap *workspace.Snapshot, f workspace.File, lang *sitter.Language, get func(syntax.TreeKey) *syntax.Tree) *syntax.Tree {
	if ft == nil || f.Doc != nil {
		return nil
	}
	path := f.Path()
	ft.mu.Lock()
	known, ok := ft.files[path]
	ft.mu.Unlock()
	if !ok || known.lang != lang {
		return nil
	}
	if stamp, err := snap.Stat(f); err != nil || stamp != known.stamp {
		ft.Forget(path) // changed, gone or unreadable: the next read says which
		return nil
	}
	tree := get(known.key)
	if tree == nil || tree != known.tree.Value() {
		ft.Forget(path)
		return nil
	}
	return tree
}

// Remember records that the file on disk f had content in lang when it was
// read with stamp, if the cache holds the tree of that content and the
// stamp is Settled.
func (ft *FileTrees) Remember(f workspace.File, stamp workspace.FileStamp, lang *sitter.Language, content []byte, cache *syntax.Cache) {
	if ft == nil || f.Doc != nil || !cache.Enabled() {
		return
	}
	now := time.Now
	if ft.Now != nil {
		now = ft.Now
	}
	if !stamp.Settled(now()) {
		return
	}
	key := cache.KeyOf(lang, content)
	tree := cache.Peek(key)
	if tree == nil || !bytes.Equal(tree.Source, content) {
		return // not cached (no room), or another content with the same hash
	}
	ft.mu.Lock()
	defer ft.mu.Unlock()
	ft.files[f.Path()] = fileTree{lang: lang, stamp: stamp, key: key, tree: weak.Make(tree)}
}

// Forget drops what is remembered of the files at the absolute paths (as
// the client names them, see File.Path): they changed on disk.
func (ft *FileTrees) Forget(paths ...string) {
	if ft == nil {
		return
	}
	ft.mu.Lock()
	defer ft.mu.Unlock()
	for _, p := range paths {
		delete(ft.files, p)
	}
}

// ForgetAll drops everything remembered: for changes on disk that name no
// file (the folders changed).
func (ft *FileTrees) ForgetAll() {
	if ft == nil {
		return
	}
	ft.mu.Lock()
	defer ft.mu.Unlock()
	clear(ft.files)
}
