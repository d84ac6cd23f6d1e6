package syntax

import (
	"bytes"
	"cmp"
	"context"
	"hash/maphash"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// The cache keys trees by content, so it cannot tell that a text it has
// never seen is the next version of an open document. The server tells it
// (SetDocument, on didOpen and every didChange): a miss on a document's
// current text then reparses the document's kept tree incrementally
// (incremental.go) instead of parsing from nothing. Nothing else changes: the
// new tree is cached under its content like any other, so a query after a
// keystroke gets exactly the tree a full parse would give, and the tree of
// the previous text is never served for the new one.

// openDocuments are the open documents whose trees the cache keeps.
type openDocuments struct {
	mu    sync.Mutex
	byURI map[string]*openDocument
}

// openDocument is one open document: the key of its current text (guarded
// by openDocuments.mu) and its kept tree.
type openDocument struct {
	key    cacheKey
	mu     sync.Mutex // guards what follows; held while the document is reparsed
	tree   docTree
	closed bool
	parsed uint64 // when the document was last parsed, in parseClock ticks
}

// maxKeptTrees bounds the tree-sitter trees kept for open documents to those
// of the documents parsed most recently: each costs memory of the order of
// its flat tree, outside the cache's budget, and an editor may hold hundreds
// of documents open while the person types in a few.
const maxKeptTrees = 16

// parseClock orders the parses of open documents, for maxKeptTrees.
var parseClock atomic.Uint64

// SetDocument tells the cache that the open document uri now holds content,
// in the language lang (nil: none of the catalogue's). Its tree is kept from
// the first parse of its text on, and every later version is reparsed from
// the previous tree. It costs one hash of the content and never waits for a
// parse.
func (c *Cache) SetDocument(uri string, lang *sitter.Language, content []byte) {
	if c == nil {
		return
	}
	key := cacheKey{lang: lang, hash: maphash.Bytes(c.seed, content), size: len(content)}
	c.docs.mu.Lock()
	defer c.docs.mu.Unlock()
	doc := c.docs.byURI[uri]
	if doc != nil && doc.key.lang != lang { // a new language: the old tree is of no use
		delete(c.docs.byURI, uri)
		go doc.close() // off the caller's path: a reparse may hold it
		doc = nil
	}
	if lang == nil {
		return
	}
	if doc == nil {
		if c.docs.byURI == nil {
			c.docs.byURI = map[string]*openDocument{}
		}
		doc = &openDocument{tree: docTree{lang: lang}}
		c.docs.byURI[uri] = doc
	}
	doc.key = key
}

// CloseDocument frees the kept tree of the document uri.
func (c *Cache) CloseDocument(uri string) {
	if c == nil {
		return
	}
	c.docs.mu.Lock()
	doc := c.docs.byURI[uri]
	delete(c.docs.byURI, uri)
	c.docs.mu.Unlock()
	if doc != nil {
		doc.close()
	}
}

func (d *openDocument) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.tree.free()
	d.closed = true
}

// KeptTrees returns how many open documents have a kept tree-sitter tree,
// for tests: the trees are freed when their documents close.
func (c *Cache) KeptTrees() int {
	c.docs.mu.Lock()
	defer c.docs.mu.Unlock()
	n := 0
	for _, doc := range c.docs.byURI {
		doc.mu.Lock()
		if doc.tree.tree != nil {
			n++
		}
		doc.mu.Unlock()
	}
	return n
}

// Parses returns how many files the cache has parsed (fully,
// incrementally, or only the subtrees a query needs: ParseIfRoom) because
// it did not hold their trees, for tests: a query over files that are all
// cached parses none.
func (c *Cache) Parses() int64 { return c.parses.Load() }

// parseMiss parses source, which the cache does not hold under key: by
// reparsing the open document whose current text it is, or from nothing,
// in scratch's arena (nil: one of the package's pool). The tree owns a copy
// of source.
func (c *Cache) parseMiss(ctx context.Context, key cacheKey, lang *sitter.Language, source []byte, scratch *Scratch) (*Tree, error) {
	c.parses.Add(1)
	if doc := c.documentWith(key); doc != nil {
		doc.mu.Lock()
		defer doc.mu.Unlock()
		if !doc.closed {
			doc.parsed = parseClock.Add(1)
			defer c.trimKeptTrees(doc)
			return doc.tree.treeOf(ctx, source)
		}
	}
	if scratch == nil {
		return Parse(ctx, lang, bytes.Clone(source))
	}
	return parseOwned(ctx, lang, bytes.Clone(source), scratch)
}

// trimKeptTrees frees the trees of the documents parsed least recently
// beyond maxKeptTrees; current, whose lock the caller holds, keeps its tree.
// A document being reparsed meanwhile is passed over.
func (c *Cache) trimKeptTrees(current *openDocument) {
	c.docs.mu.Lock()
	docs := slices.Collect(maps.Values(c.docs.byURI))
	c.docs.mu.Unlock()
	var kept []*openDocument // locked by this call
	for _, doc := range docs {
		if doc == current || !doc.mu.TryLock() {
			continue
		}
		if doc.tree.tree == nil {
			doc.mu.Unlock()
			continue
		}
		kept = append(kept, doc)
	}
	slices.SortFunc(kept, func(a, b *openDocument) int { return cmp.Compare(a.parsed, b.parsed) })
	excess := len(kept) + 1 - maxKeptTrees
	for i, doc := range kept {
		if i < excess {
			doc.tree.free()
		}
		doc.mu.Unlock()
	}
}

// documentWith returns the open document whose current text has key, or nil.
func (c *Cache) documentWith(key cacheKey) *openDocument {
	c.docs.mu.Lock()
	defer c.docs.mu.Unlock()
	for _, doc := range c.docs.byURI {
		if doc.key == key {
			return doc
		}
	}
	return nil
}
