package syntax

import (
	"bytes"
	"container/list"
	"context"
	"hash/maphash"
	"sync"
	"sync/atomic"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// Cache keeps the flat trees of file contents for a long-lived server, so a
// second query over the same files skips parsing. Entries are keyed by
// language and content (a hash, confirmed by comparing the bytes), so an
// edited file simply misses and its old tree ages out: there is nothing to
// invalidate. The least recently used trees are dropped to stay under the
// memory budget — except that a query never drops the trees it has used
// itself: a workspace larger than the budget is then cached up to the budget
// and stays so, where plain LRU would have each query drop, file by file,
// exactly the trees the next query reads first. A Cache is safe for
// concurrent use.
type Cache struct {
	mu      sync.Mutex
	budget  int64 // bytes
	used    int64
	sources int64  // of used, the trees' sources (for hasRoomFor)
	query   uint64 // counts StartQuery calls
	seed    maphash.Seed
	entries map[cacheKey]*list.Element
	lru     *list.List // front: most recently used *cacheEntry

	docs   openDocuments // trees kept for incremental reparsing (incremental_cache.go)
	pacer  gcPacer       // the collector's pacing, when PaceGC asked for it (gcpace.go)
	parses atomic.Int64  // trees parsed on a miss, for tests (Parses)
}

type cacheKey struct {
	lang *sitter.Language
	hash uint64
	size int
}

type cacheEntry struct {
	key   cacheKey
	tree  *Tree
	cost  int64
	query uint64 // the last query that used the tree
}

// NewCache returns a cache holding at most budget bytes of trees and sources.
func NewCache(budget int64) *Cache {
	return &Cache{budget: budget, seed: maphash.MakeSeed(), entries: map[cacheKey]*list.Element{}, lru: list.New()}
}

// Parse returns the tree of source, from the cache or freshly parsed. The
// returned tree owns its Source (a copy when it is cached), so the caller may
// reuse its buffer.
func (c *Cache) Parse(ctx context.Context, lang *sitter.Language, source []byte) (*Tree, error) {
	return c.ParseIn(ctx, lang, source, nil)
}

// ParseIn is Parse for a worker that parses file after file with scratch
// (nil: a scratch of the package's pool): the parse runs in scratch's
// arena, which keeps the pages it touched for the next file, where the
// pool's scratches keep little (pooledArenaKeep) and a large file faults
// in fresh pages. A tree the cache keeps is copied out of the scratch;
// with the cache disabled the tree is the scratch's, valid until its next
// parse.
func (c *Cache) ParseIn(ctx context.Context, lang *sitter.Language, source []byte, scratch *Scratch) (*Tree, error) {
	if !c.Enabled() {
		if scratch == nil {
			return Parse(ctx, lang, source)
		}
		return parse(ctx, lang, source, allNodes, scratch)
	}
	key := c.KeyOf(lang, source)
	if tree := c.Cached(key); tree != nil && bytes.Equal(tree.Source, source) {
		return tree, nil
	}
	tree, err := c.parseMiss(ctx, key.key, lang, source, scratch)
	if err != nil {
		return nil, err
	}
	c.add(key.key, tree)
	return tree, nil
}

// Enabled reports whether the cache keeps trees: it is not nil and has a
// budget. A nil Cache is valid and keeps nothing.
func (c *Cache) Enabled() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.budget > 0
}

func (c *Cache) add(key cacheKey, tree *Tree) {
	cost := treeCost(tree)
	c.mu.Lock() // before reading the budget, which SetBudget may be changing
	defer c.mu.Unlock()
	if cost > c.budget/4 {
		return // one huge file would flush everything else
	}
	if _, ok := c.entries[key]; ok || !c.makeRoomLocked(cost) {
		return
	}
	c.insertLocked(key, tree, cost, c.query)
}

// insertLocked adds tree, which costs cost and was last used by query.
// Precondition: c.mu is held, the key is not in the cache, and the tree fits.
func (c *Cache) insertLocked(key cacheKey, tree *Tree, cost int64, query uint64) {
	c.entries[key] = c.lru.PushFront(&cacheEntry{key: key, tree: tree, cost: cost, query: query})
	c.used += cost
	c.sources += int64(len(tree.Source))
	c.pacer.update(c.used)
}

// treeCost is what a cached tree is charged: its source, its nodes and its
// line table (made here, so the charge is what the tree will hold).
func treeCost(tree *Tree) int64 {
	return int64(len(tree.Source)) + int64(len(tree.Nodes))*int64(nodeSize) + tree.lineTableBytes()
}

// StartQuery tells the cache a new query begins: the trees earlier queries
// used may now make room for this one's.
func (c *Cache) StartQuery() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.query++
}

// makeRoomLocked drops least recently used trees of earlier queries until
// cost more bytes fit, and reports whether they do. Trees the current query
// used are all nearer the front than any other, so it stops at the first.
// Precondition: c.mu is held.
func (c *Cache) makeRoomLocked(cost int64) bool {
	for c.used+cost > c.budget {
		oldest := c.lru.Back()
		if oldest == nil || oldest.Value.(*cacheEntry).query == c.query {
			return false
		}
		c.drop(oldest)
	}
	return true
}

func (c *Cache) drop(el *list.Element) {
	e := el.Value.(*cacheEntry)
	c.lru.Remove(el)
	delete(c.entries, e.key)
	c.used -= e.cost
	c.sources -= int64(len(e.tree.Source))
	c.pacer.update(c.used)
}

// evictLocked drops the least recently used trees until the cache fits.
// Precondition: c.mu is held.
func (c *Cache) evictLocked() {
	for c.used > max(c.budget, 0) && c.lru.Len() > 0 {
		c.drop(c.lru.Back())
	}
}

// CacheStats is what a Cache holds: its trees, their nodes, their sources'
// bytes, and all the bytes charged for them against the budget.
type CacheStats struct {
	Trees       int   `json:"trees"`
	Nodes       int64 `json:"nodes"`
	SourceBytes int64 `json:"sourceBytes"`
	Bytes       int64 `json:"bytes"`
}

// Stats reports what the cache holds now.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := CacheStats{Trees: c.lru.Len(), Bytes: c.used}
	for el := c.lru.Front(); el != nil; el = el.Next() {
		tree := el.Value.(*cacheEntry).tree
		st.Nodes += int64(len(tree.Nodes))
		st.SourceBytes += int64(len(tree.Source))
	}
	return st
}

// SetBudget changes the memory budget, dropping trees to fit; 0 disables caching.
func (c *Cache) SetBudget(budget int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.budget = budget
	c.evictLocked()
}
