package syntax

import (
	"bytes"
	"context"
	"errors"
	"hash/maphash"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// ErrCacheFull is returned by Warm once the cache has no room left for
// another tree: background parsing stops there, as anything more it parsed
// would only push out trees that queries have used.
var ErrCacheFull = errors.New("the parse cache is full: raise the parseCacheMB setting to keep more trees")

// Warm puts the tree of source into the cache, unless it is there already,
// for background parsing (package warmup). Unlike Parse it never makes room:
// it neither drops a tree nor moves one in the recency order, and it returns
// ErrCacheFull when the tree does not fit. A tree too large to cache at all
// (see add) is parsed and not kept, and is no error. A disabled cache is full.
func (c *Cache) Warm(ctx context.Context, lang *sitter.Language, source []byte) error {
	if !c.Enabled() {
		return ErrCacheFull
	}
	key := cacheKey{lang: lang, hash: maphash.Bytes(c.seed, source), size: len(source)}
	c.mu.Lock()
	el, cached := c.entries[key]
	cached = cached && bytes.Equal(el.Value.(*cacheEntry).tree.Source, source)
	full := c.used >= c.budget
	c.mu.Unlock()
	switch {
	case cached:
		return nil
	case full:
		return ErrCacheFull
	}
	return c.warm(ctx, key, lang, source, nil)
}

// Fill puts the tree of source into the cache, parsed in scratch's arena,
// for a query that runs while background parsing is to fill the cache and
// meets a file its pattern cannot match (package astgrep): the query
// parses the file for the queries after it, as the background run would
// have, so that they are warm whatever they need. Like Warm it drops no
// tree and moves none in the recency order, and the tree counts as used by
// no query. It parses nothing when the tree is cached already, or too large
// to be cached at all (no error), or unlikely to fit in the room left
// (ErrCacheFull, as when the cache is disabled).
func (c *Cache) Fill(ctx context.Context, lang *sitter.Language, source []byte, scratch *Scratch) error {
	if !c.Enabled() {
		return ErrCacheFull
	}
	key := c.KeyOf(lang, source).key
	c.mu.Lock()
	el, cached := c.entries[key]
	cached = cached && bytes.Equal(el.Value.(*cacheEntry).tree.Source, source)
	estimate := c.estimateLocked(len(source))
	tooLarge, full := estimate > c.budget/4, c.used+estimate > c.budget
	c.mu.Unlock()
	switch {
	case cached || tooLarge:
		return nil
	case full:
		return ErrCacheFull
	}
	return c.warm(ctx, key, lang, source, scratch)
}

// warm parses source (in scratch's arena, or fresh memory when nil) and
// caches its tree as used by no query when it fits, dropping nothing.
func (c *Cache) warm(ctx context.Context, key cacheKey, lang *sitter.Language, source []byte, scratch *Scratch) error {
	tree, err := c.parseMiss(ctx, key, lang, source, scratch)
	if err != nil {
		return err
	}
	cost := treeCost(tree)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch _, raced := c.entries[key]; {
	case raced || cost > c.budget/4: // a query cached it meanwhile; or it is too large to cache
		return nil
	case c.used+cost > c.budget:
		return ErrCacheFull
	}
	// Query 0 is before every query: the first query that needs room may drop it.
	c.insertLocked(key, tree, cost, 0)
	return nil
}
