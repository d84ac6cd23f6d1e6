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
// for background parsing (package index). Unlike Parse it never makes room:
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
	tree, err := c.parseMiss(ctx, key, lang, source, nil)
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
