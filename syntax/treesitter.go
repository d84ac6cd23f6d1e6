package syntax

// #include <stdlib.h>
// #include "syntax.h"
import "C"

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// Tree-sitter's memory comes from arena.c: the arena of the goroutine
// parsing, or libc's malloc. (go-tree-sitter v0.25.0 installs an allocator
// that calls back into Go on every malloc and free — a cgo callback per
// allocation — which this replaces; memory allocated before is libc's, and
// the hooks free it with libc.)
func init() { C.structls_use_arena_allocator() }

// Scratch is what one goroutine parses with, file after file: the arena
// tree-sitter allocates from (rewound after each file, keeping up to
// SetArenaKeep's bytes of touched pages for the next), the cancellation
// flag tree-sitter polls, and the slice the flat nodes are written into —
// so a search over thousands of files allocates none of these per file.
// The zero Scratch is ready to use; Release gives its memory back. A
// Scratch is not safe for concurrent use.
type Scratch struct {
	nodes   []Node
	c       *C.structls_scratch
	cleanup runtime.Cleanup // frees c if the scratch is dropped unreleased
	pooled  bool            // one of scratchPool's: keeps pooledArenaKeep
	// keep is what the arena keeps from file to file, set by the options of
	// the first parse's context (ParseOptions.ArenaKeep); 0 before it.
	keep int64
}

// nativeFor is native, the arena keeping what ctx's options say when this
// is the scratch's first parse.
func (s *Scratch) nativeFor(ctx context.Context) *C.structls_scratch {
	if s.c == nil && s.keep == 0 {
		s.keep = ParseOptionsOf(ctx).ArenaKeep
	}
	return s.native()
}

func (s *Scratch) native() *C.structls_scratch {
	if s.c == nil {
		s.c = (*C.structls_scratch)(C.calloc(1, C.sizeof_structls_scratch))
		if s.keep <= 0 {
			s.keep = arenaKeep.Load()
		}
		s.c.keep = C.size_t(s.keep)
		if s.pooled {
			s.c.keep = pooledArenaKeep
		}
		s.cleanup = runtime.AddCleanup(s, func(c *C.structls_scratch) { C.structls_scratch_free(c) }, s.c)
	}
	return s.c
}

// giveBackArena gives the arena's memory back to the kernel, the part
// kept for the next file included: for a scratch that is about to wait
// (for the parse budget, while a large file parses), so that the peak is
// that parse's alone.
func (s *Scratch) giveBackArena() {
	if s.c != nil {
		C.structls_arena_give_back(s.c)
	}
}

// Release gives the scratch's memory back at once — its arena to the
// kernel, its node slice to the collector — instead of whenever the
// garbage collector finds the scratch dropped: for a goroutine done
// parsing, such as a query's worker once the query ends. The scratch may
// be used again; its next parse starts a new arena.
func (s *Scratch) Release() {
	if s.c != nil {
		s.cleanup.Stop()
		C.structls_scratch_free(s.c)
		s.c = nil
	}
	s.nodes = nil
}

// Scratches hands out one scratch to each worker of a run and releases
// them all when the run ends. It is safe for concurrent use; the zero
// Scratches is ready to use.
type Scratches struct {
	mu   sync.Mutex
	made []*Scratch
}

// New returns a scratch for one worker.
func (ss *Scratches) New() *Scratch {
	s := new(Scratch)
	ss.mu.Lock()
	ss.made = append(ss.made, s)
	ss.mu.Unlock()
	return s
}

// Release releases every scratch New has returned: the run has ended, and
// none of them is in use.
func (ss *Scratches) Release() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, s := range ss.made {
		s.Release()
	}
	ss.made = nil
}

// ErrOutOfMemory reports a file whose parse needed more memory than could
// be had: that file goes unsearched (and is reported), the process goes on.
var ErrOutOfMemory = errors.New("parsing the file ran out of memory: the file is too large or too deeply nested to parse here; lower maxFileSize or exclude it")

// errRefused reports a grammar whose ABI version tree-sitter does not support.
var errRefused = errors.New("this tree-sitter library refuses the grammar's ABI version; rebuild the grammar module with a matching tree-sitter CLI")

// walkFilter says which nodes of a parsed tree are written out: all, or with
// only >= 0 the subtrees rooted at that kind; never the descendants of a
// node whose kind opaque flags (indexed by kind id; nil flags none).
type walkFilter struct {
	only   int32
	opaque []bool
	skip   []uint32 // pairs of byte offsets: text inside opaque nodes the parse leaves out
}

// allNodes is the filter that writes every node.
var allNodes = walkFilter{only: -1}

// native is the filter as the C walk takes it; the slice must stay alive
// (and unmoved: Go's heap does not move) for the length of the call.
func (f walkFilter) native() C.walk_filter {
	w := C.walk_filter{only: C.int32_t(f.only)}
	if len(f.opaque) > 0 {
		w.opaque = (*C.bool)(unsafe.Pointer(&f.opaque[0]))
		w.opaque_count = C.uint32_t(len(f.opaque))
	}
	if len(f.skip) >= 2 {
		w.skip = (*C.uint32_t)(unsafe.Pointer(&f.skip[0]))
		w.skip_count = C.uint32_t(len(f.skip) / 2)
	}
	return w
}

// maxKeptNodes is the largest node slice a scratch reuses for its next
// parse: as many nodes as its arena keep holds bytes (SetArenaKeep), and at
// least minKeptNodes. A slice grown past it for a huge tree (a 3 MB file,
// or a forest of a few huge subtrees: 10 MB over the Go standard library
// for `$A := make($T, $N)` in structls astgrep, which keeps 4 MiB) goes to
// the collector once the next parse starts, instead of staying live for the
// rest of the search. A one-shot command keeping 64 MiB keeps the slices of
// all but the largest files: making a slice anew for every large file, and
// writing the next file's nodes out twice (into a small slice that was too
// small, then into one large enough), cost X-Ray 7% of its CPU time.
func (s *Scratch) maxKeptNodes() int {
	return max(minKeptNodes, int(s.native().keep)/int(nodeSize))
}

// minKeptNodes is the node slice every scratch may keep.
const minKeptNodes = 64 << 10

// parseFlat parses source and writes its flat nodes, those filter keeps,
// into the scratch; with own, into a slice of their own, as long as the
// tree (own needs a filter that keeps every node: the C side counts them
// before the walk, which then writes them once, where it is kept — no copy
// out of the scratch). Tree-sitter reads the Go bytes in place and polls a
// flag in C memory that a cancelled ctx sets: no call comes back into Go
// while it parses.
func parseFlat(ctx context.Context, lang *sitter.Language, source []byte, filter walkFilter, own bool, s *Scratch) ([]Node, bool, error) {
	if err := CheckInput(lang, source); err != nil {
		return nil, false, err
	}
	c := s.nativeFor(ctx)
	flag := (*uintptr)(unsafe.Pointer(&c.cancel))
	atomic.StoreUintptr(flag, 0)
	stop := func() bool { return true }
	var fired chan struct{}
	if ctx.Done() != nil {
		fired = make(chan struct{})
		stop = context.AfterFunc(ctx, func() { atomic.StoreUintptr(flag, 1); close(fired) })
	}
	var text *C.char
	if len(source) > 0 {
		text = (*C.char)(unsafe.Pointer(&source[0]))
	}
	var buf []Node // nil with own: structls_parse counts the nodes
	if !own {
		buf = s.nodes[:cap(s.nodes)]
		if len(buf) < 64 || len(buf) > s.maxKeptNodes() {
			buf = make([]Node, 1024)
		}
	}
	var hasError C.bool
	n := int(C.structls_parse(c, (*C.TSLanguage)(unsafe.Pointer(lang.Inner)), text, C.uint32_t(len(source)),
		filter.native(), nodesOf(buf), C.int64_t(len(buf)), &hasError))
	if !stop() {
		<-fired // the flag is being set: let that finish before the next parse clears it
	}
	for n > len(buf) {
		size := n + n/4 // room for the next files
		if own || size > s.maxKeptNodes() {
			size = n // not kept for them anyway
		}
		buf = make([]Node, size)
		n = int(C.structls_flatten(c, filter.native(), nodesOf(buf), C.int64_t(len(buf)), &hasError))
	}
	switch {
	case n == C.REFUSED:
		return nil, false, errRefused
	case n == C.OUT_OF_MEMORY:
		return nil, false, ErrOutOfMemory
	case n < 0 && ctx.Err() != nil:
		return nil, false, ErrCancelled
	case n < 0:
		return nil, false, errors.New("tree-sitter returned no tree")
	}
	runtime.KeepAlive(filter.opaque)
	runtime.KeepAlive(filter.skip)
	if !own {
		s.nodes = buf
	}
	return buf[:n], bool(hasError), nil
}

// nodesOf is the C view of nodes' array: NULL for none.
func nodesOf(nodes []Node) *C.flat_node {
	if len(nodes) == 0 {
		return nil
	}
	return (*C.flat_node)(unsafe.Pointer(&nodes[0]))
}

// parser is a tree-sitter parser on libc memory, for kindsPresent.
type parser struct{ p *C.TSParser }

func newParser(lang *sitter.Language) (*parser, error) {
	p := C.ts_parser_new()
	if !C.ts_parser_set_language(p, (*C.TSLanguage)(unsafe.Pointer(lang.Inner))) {
		C.ts_parser_delete(p)
		return nil, fmt.Errorf("loading the grammar: %w", errRefused)
	}
	pr := &parser{p: p}
	runtime.AddCleanup(pr, func(p *C.TSParser) { C.ts_parser_delete(p) }, p)
	return pr, nil
}

// setCursorWalk makes every flatten walk the tree with tree-sitter's
// cursor (on) or read its subtrees directly where their layout allows
// (off, the default): for the tests that compare the two. No parse may
// run while it changes.
func setCursorWalk(on bool) { C.structls_cursor_walk = C.bool(on) }

// walks counts the walks that have written trees out in this process, for
// the tests.
func walks() uint64 { return uint64(C.structls_walk_count()) }

// kindsPresent parses source with a parser of its own and reports, for every
// kind of the language, whether a walk of the tree meets a node of that kind
// and what the direct check (structls_may_have_kind) answers. For
// TestHasKind, which needs both answers on the same tree.
func kindsPresent(lang *sitter.Language, source []byte) (direct, walked []bool, err error) {
	p, err := newParser(lang)
	if err != nil {
		return nil, nil, err
	}
	if len(source) == 0 {
		source = []byte{'\n'}
	}
	tree := C.ts_parser_parse_string(p.p, nil, (*C.char)(unsafe.Pointer(&source[0])), C.uint32_t(len(source)))
	if tree == nil {
		return nil, nil, errors.New("tree-sitter returned no tree")
	}
	defer C.ts_tree_delete(tree)
	defer runtime.KeepAlive(p)
	n := lang.NodeKindCount()
	direct, walked = make([]bool, n), make([]bool, n)
	C.structls_kinds_present(tree, (*C.bool)(unsafe.Pointer(&direct[0])), (*C.bool)(unsafe.Pointer(&walked[0])), C.uint32_t(n))
	return direct, walked, nil
}

// setArenaBudget caps the memory one parse may take (the bytes of its
// arena's chunks; unlimited by default), for tests of running out of memory.
func setArenaBudget(bytes uint64) {
	C.structls_set_arena_budget(C.size_t(bytes))
}

// reservedBytes is the memory the scratch's arena holds between parses.
func (s *Scratch) reservedBytes() int64 {
	if s.c == nil {
		return 0
	}
	return int64(s.c.reserved)
}
