package syntax

import (
	"hash/maphash"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// TreeKey names the tree a Cache keeps for one content, without holding
// the content: a caller that knows which content a file had (by its stamp,
// see parsecache.FileTrees) finds the file's tree again with Cached instead
// of reading and hashing the file.
type TreeKey struct{ key cacheKey }

// KeyOf returns the key under which c keeps the tree of source in lang.
// c must be Enabled.
func (c *Cache) KeyOf(lang *sitter.Language, source []byte) TreeKey {
	return TreeKey{cacheKey{lang: lang, hash: maphash.Bytes(c.seed, source), size: len(source)}}
}

// Cached returns the tree c keeps under key, counted as used by the
// current query as a hit of Parse is; nil when it is not cached (or no
// longer: it was dropped to make room).
func (c *Cache) Cached(key TreeKey) *Tree {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key.key]
	if !ok {
		return nil
	}
	e := el.Value.(*cacheEntry)
	c.lru.MoveToFront(el)
	e.query = c.query
	return e.tree
}

// Peek returns the tree c keeps under key, or nil, without counting it as
// used: for recording which tree a content has (parsecache.FileTrees), which
// is no use of the tree.
func (c *Cache) Peek(key TreeKey) *Tree {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key.key]; ok {
		return el.Value.(*cacheEntry).tree
	}
	return nil
}
