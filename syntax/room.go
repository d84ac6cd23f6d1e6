package syntax

import (
	"bytes"
	"context"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// ParseIfRoom returns the tree of source for a query that runs while
// background parsing is filling the cache (package warmup), so that the
// trees a query parses serve the queries after it however far background
// parsing has got: the cached tree when there is one; else, when the cache
// has room for it, the whole tree, parsed in scratch's arena and kept as used
// by the current query (like Warm, it drops no tree to make room); else
// only the subtrees rooted at nodes of kind symbol, as ParseSubtrees parses
// them (valid until scratch's next parse, and not kept): a full cache costs
// the query no more than a one-shot search. A disabled cache keeps nothing
// and parses the subtrees.
func (c *Cache) ParseIfRoom(ctx context.Context, lang *sitter.Language, source []byte, symbol uint16, scratch *Scratch) (*Tree, error) {
	if !c.Enabled() {
		return ParseSubtrees(ctx, lang, source, symbol, scratch)
	}
	key := c.KeyOf(lang, source)
	if tree := c.Cached(key); tree != nil && bytes.Equal(tree.Source, source) {
		return tree, nil
	}
	if !c.hasRoomFor(len(source)) {
		c.parses.Add(1)
		return ParseSubtrees(ctx, lang, source, symbol, scratch)
	}
	tree, err := c.parseMiss(ctx, key.key, lang, source, scratch)
	if err != nil {
		return nil, err
	}
	c.keep(key.key, tree)
	return tree, nil
}

// hasRoomFor reports whether the tree of a source of n bytes is likely to
// fit in the room the cache has left, and to be cached at all (see add):
// its cost is guessed from the cost per source byte of the trees cached so
// far (at least its source when there are none).
func (c *Cache) hasRoomFor(n int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	estimate := c.estimateLocked(n)
	return estimate <= c.budget/4 && c.used+estimate <= c.budget
}

// estimateLocked guesses the cost of the tree of a source of n bytes from
// the cost per source byte of the trees cached so far (at least its source
// when there are none). Precondition: c.mu is held.
func (c *Cache) estimateLocked(n int) int64 {
	estimate := int64(n)
	if c.sources > 0 {
		estimate = max(estimate, int64(float64(n)*float64(c.used)/float64(c.sources)))
	}
	return estimate
}

// keep caches tree as used by the current query when it fits beside the
// trees the cache holds; it drops none to make room.
func (c *Cache) keep(key cacheKey, tree *Tree) {
	cost := treeCost(tree)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok || cost > c.budget/4 || c.used+cost > c.budget {
		return
	}
	c.insertLocked(key, tree, cost, c.query)
}
