package syntax

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"sync"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// ErrCancelled is returned by Parse when its context ended mid-parse.
var ErrCancelled = errors.New("parse cancelled")

// errorSymbol is tree-sitter's kind id of ERROR nodes (ts_builtin_sym_error).
const errorSymbol = 0xFFFF

// Parse parses source and returns its whole flat tree. A cancelled ctx stops
// the parse (tree-sitter checks it as it goes) with ErrCancelled.
func Parse(ctx context.Context, lang *sitter.Language, source []byte) (*Tree, error) {
	s := scratchPool.Get().(*Scratch)
	defer scratchPool.Put(s)
	return parseOwned(ctx, lang, source, s)
}

// parseOwned parses source's whole tree in scratch's arena into nodes of
// its own, which outlive scratch's next parse: the tree of a cache, or of
// Parse's caller. They are written there directly (parseFlat's own).
func parseOwned(ctx context.Context, lang *sitter.Language, source []byte, scratch *Scratch) (*Tree, error) {
	return parseWith(ctx, lang, source, allNodes, true, scratch)
}

// scratchPool holds the scratches of single-file parses (Parse): they keep
// only pooledArenaKeep of their arenas, as the pool may hold several for
// the life of a server.
var scratchPool = sync.Pool{New: func() any { return &Scratch{pooled: true} }}

// ParseSubtrees parses source like Parse but keeps only the subtrees rooted
// at nodes of kind symbol, in pre-order: a forest whose roots have Parent -1.
// Those are all a pattern whose root has that kind can match, and building
// them costs a fraction of the whole tree. The tree's nodes live in scratch:
// they are valid until the next call with the same scratch.
func ParseSubtrees(ctx context.Context, lang *sitter.Language, source []byte, symbol uint16, scratch *Scratch) (*Tree, error) {
	return parse(ctx, lang, source, walkFilter{only: int32(symbol)}, scratch)
}

// KindSet is a set of one language's node kinds, a flag per kind id.
type KindSet []bool

// NewKindSet returns the set of lang's named kinds called one of names.
// A name may stand for several kind ids (a grammar's aliases); all are in.
func NewKindSet(lang *sitter.Language, names ...string) KindSet {
	set := make(KindSet, lang.NodeKindCount())
	for id := range set {
		set[id] = lang.NodeKindIsNamed(uint16(id)) && slices.Contains(names, lang.NodeKindForId(uint16(id)))
	}
	return set
}

// ParsePruned parses source like Parse, but does not write out the
// descendants of nodes whose kind is in opaque: each such node is a leaf of
// the tree (IsPruned when it had children). For readers that never look
// inside some kinds (an outline, inside a function's body), it saves most of
// the cost of writing the tree out. skip (pairs of byte offsets, start and
// end, in order; nil for none) is text inside such nodes that a cheap scan
// found: the parser leaves it out, and the rest keeps its positions, which
// saves most of the parse too (Go's function bodies: an outline of the
// standard library in 42% of the time). Pairs out of order or past the end
// are ignored. The tree's nodes live in scratch: they are valid until the
// next call with the same scratch.
func ParsePruned(ctx context.Context, lang *sitter.Language, source []byte, opaque KindSet, skip []uint32, scratch *Scratch) (*Tree, error) {
	return parse(ctx, lang, source, walkFilter{only: -1, opaque: opaque, skip: skip}, scratch)
}

// ParseWith returns the tree of source for a reader done with it before
// scratch's next parse. With a cache that keeps trees it is the whole tree,
// from or into the cache, for the queries that follow (a server); without
// one it is parsed into scratch, reused file after file, pruned of the
// opaque kinds' insides (nil prunes nothing), without the skip text
// (ParsePruned): a one-shot command's workers then keep their arenas'
// touched pages and copy no node out.
func (c *Cache) ParseWith(ctx context.Context, lang *sitter.Language, source []byte, opaque KindSet, skip []uint32, scratch *Scratch) (*Tree, error) {
	if c.Enabled() {
		return c.Parse(ctx, lang, source)
	}
	return ParsePruned(ctx, lang, source, opaque, skip, scratch)
}

func parse(ctx context.Context, lang *sitter.Language, source []byte, filter walkFilter, scratch *Scratch) (*Tree, error) {
	return parseWith(ctx, lang, source, filter, false, scratch)
}

// parseWith is parse, whose nodes are the tree's own with own (parseFlat).
func parseWith(ctx context.Context, lang *sitter.Language, source []byte, filter walkFilter, own bool, scratch *Scratch) (*Tree, error) {
	if len(source) > math.MaxUint32 {
		return nil, fmt.Errorf("the file is %d bytes; tree-sitter parses at most 4 GiB", len(source))
	}
	if ctx.Err() != nil {
		return nil, ErrCancelled
	}
	// A scratch that must wait while large files parse gives back its
	// arena meanwhile: the process's peak is then theirs alone.
	taken, err := parsingBytes.acquire(ctx, int64(len(source)), scratch.giveBackArena)
	if err != nil {
		return nil, err
	}
	if taken < int64(len(source)) && ParseOptionsOf(ctx).FreeHeapBeforeLoneParses {
		// Larger than the budget, the file parses alone, and its parse is
		// the process's peak: the collector's garbage need not add to it.
		returnFreeHeap()
	}
	nodes, hasError, err := parseFlat(ctx, lang, source, filter, own, scratch)
	parsingBytes.release(taken)
	if err != nil {
		return nil, err
	}
	return newTree(lang, source, nodes, hasError), nil
}

// returnFreeHeap collects the Go heap and returns its free memory to the
// kernel (debug.FreeOSMemory): over the Go standard library it took 8-10 MB
// off `structls astgrep`'s peak, which a few files larger than its parse
// budget set, at no measurable cost. A variable, for tests.
var returnFreeHeap = debug.FreeOSMemory

// newTree makes the Tree of source from its flat nodes.
func newTree(lang *sitter.Language, source []byte, nodes []Node, hasError bool) *Tree {
	return &Tree{Lang: lang, Source: source, Nodes: nodes, kinds: kindsOf(lang), hasError: hasError}
}
