package syntax

import (
	"bytes"
	"container/list"
	"context"
	"hash/maphash"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Cache keeps the flat trees of file contents for a long-lived server, so a
// second query over the same files skips parsing. Entries are keyed by
// language and content (a hash, confirmed by comparing the bytes), so an
// edited file simply misses and its old tree ages out: there is nothing to
// invalidate. The least recently used trees are dropped to stay under the
// memory budget. A Cache is safe for concurrent use.
type Cache struct {
	mu      sync.Mutex
	budget  int64 // bytes
	used    int64
	seed    maphash.Seed
	entries map[cacheKey]*list.Element
	lru     *list.List // front: most recently used *cacheEntry
}

type cacheKey struct {
	lang *sitter.Language
	hash uint64
	size int
}

type cacheEntry struct {
	key  cacheKey
	tree *Tree
	cost int64
}

// NewCache returns a cache holding at most budget bytes of trees and sources.
func NewCache(budget int64) *Cache {
	return &Cache{budget: budget, seed: maphash.MakeSeed(), entries: map[cacheKey]*list.Element{}, lru: list.New()}
}

// Parse returns the tree of source, from the cache or freshly parsed. The
// returned tree owns its Source (a copy when it is cached), so the caller may
// reuse its buffer.
func (c *Cache) Parse(ctx context.Context, lang *sitter.Language, source []byte) (*Tree, error) {
	if !c.Enabled() {
		return Parse(ctx, lang, source)
	}
	key := cacheKey{lang: lang, hash: maphash.Bytes(c.seed, source), size: len(source)}
	c.mu.Lock()
	if el, ok := c.entries[key]; ok && bytes.Equal(el.Value.(*cacheEntry).tree.Source, source) {
		c.lru.MoveToFront(el)
		c.mu.Unlock()
		return el.Value.(*cacheEntry).tree, nil
	}
	c.mu.Unlock()
	tree, err := Parse(ctx, lang, bytes.Clone(source))
	if err != nil {
		return nil, err
	}
	c.add(key, tree)
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
	cost := int64(len(tree.Source)) + int64(len(tree.Nodes))*int64(nodeSize)
	if cost > c.budget/4 {
		return // one huge file would flush everything else
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		return
	}
	c.entries[key] = c.lru.PushFront(&cacheEntry{key: key, tree: tree, cost: cost})
	c.used += cost
	c.evictLocked()
}

// evictLocked drops the least recently used trees until the cache fits.
// Precondition: c.mu is held.
func (c *Cache) evictLocked() {
	for c.used > max(c.budget, 0) && c.lru.Len() > 0 {
		oldest := c.lru.Back()
		e := oldest.Value.(*cacheEntry)
		c.lru.Remove(oldest)
		delete(c.entries, e.key)
		c.used -= e.cost
	}
}

// SetBudget changes the memory budget, dropping trees to fit; 0 disables caching.
func (c *Cache) SetBudget(budget int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.budget = budget
	c.evictLocked()
}
