package syntax

// #include <stdlib.h>
// #include "incremental.h"
import "C"

import (
	"bytes"
	"context"
	"errors"
	"sync/atomic"
	"unsafe"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// Incremental reparsing. A file found by a search is parsed from nothing and
// its tree-sitter tree freed as soon as its flat tree is written out. An open
// document is different: it changes a keystroke at a time, and tree-sitter
// can reparse a new version from the old version's tree, reusing every
// subtree the edit did not touch. So an open document keeps its last
// tree-sitter tree (one per document, in C memory, freed when the document
// closes or the tree is superseded), and its next version is reparsed from it.
//
// The edit is not taken from the client's didChange ranges: it is found by
// comparing the old text with the new one (their common prefix and suffix).
// That is one cheap pass over the bytes, it is exact whatever happened in
// between (several notifications, a whole-document resync, an undo), and it
// needs no help from the overlay. Edits far apart in one step become a single
// edit spanning both: the reparse then reuses less, but is still correct.
//
// While the text holds a syntax error, an incremental parse may recover from
// it differently from a parse from nothing, so such a version is parsed from
// nothing (see structls_reparse): a query gets exactly the tree a full parse
// gives, always.

// docTree is the kept tree-sitter tree of one open document.
type docTree struct {
	lang   *sitter.Language
	tree   *C.TSTree // nil until the document is first parsed
	source []byte    // the text tree was parsed from (shared with the flat tree made then)
	nodes  int       // the node count of the last flat tree, to size the next
	broken bool      // the last version parsed has a syntax error
}

// treeOf returns the flat tree of source: the kept tree's when it is of
// source already, otherwise reparsed (the tree owns a copy of source).
//
// While the text has a syntax error no tree is kept: its tree could not be
// reused (see structls_reparse), and a parse from nothing in the arena
// (Parse) costs less than one whose tree is kept in libc memory. The first
// version free of errors is then parsed from nothing and kept, and the
// versions after it are reparsed from it.
func (d *docTree) treeOf(ctx context.Context, source []byte) (*Tree, error) {
	if d.tree != nil && bytes.Equal(d.source, source) {
		return d.flatten()
	}
	parse := d.reparse
	if d.broken {
		d.free()
		parse = func(ctx context.Context, source []byte) (*Tree, error) { return Parse(ctx, d.lang, source) }
	}
	tree, err := parse(ctx, bytes.Clone(source))
	if err == nil {
		d.broken = tree.HasError()
	}
	return tree, err
}

// reparse parses source, from the kept tree when there is one, keeps the new
// tree in place of the old and returns the flat tree. source must not change
// afterwards: the kept tree refers to it at the next reparse.
func (d *docTree) reparse(ctx context.Context, source []byte) (*Tree, error) {
	if len(source) > 1<<32-1 {
		return nil, errors.New("the file is larger than 4 GiB, which tree-sitter cannot parse; exclude it")
	}
	if ctx.Err() != nil {
		return nil, ErrCancelled
	}
	if err := CheckInput(d.lang, source); err != nil {
		return nil, err
	}
	edit := diffEdit(d.source, source)
	cancel := (*C.size_t)(C.calloc(1, C.sizeof_size_t))
	defer C.free(unsafe.Pointer(cancel))
	stop := func() bool { return true }
	var fired chan struct{}
	if ctx.Done() != nil {
		fired = make(chan struct{})
		stop = context.AfterFunc(ctx, func() {
			atomic.StoreUintptr((*uintptr)(unsafe.Pointer(cancel)), 1)
			close(fired)
		})
	}
	var text *C.char
	if len(source) > 0 {
		text = (*C.char)(unsafe.Pointer(&source[0]))
	}
	var refused, reused C.bool
	tree := C.structls_reparse((*C.TSLanguage)(unsafe.Pointer(d.lang.Inner)), d.tree, &edit, text, C.uint32_t(len(source)), cancel, &refused, &reused)
	if !stop() {
		<-fired // the flag is being set: let that finish before it is freed
	}
	switch {
	case bool(refused):
		return nil, errRefused
	case tree == nil:
		return nil, ErrCancelled
	}
	if reused {
		incrementalReparses.Add(1)
	}
	d.free()
	d.tree, d.source = tree, source
	return d.flatten()
}

// flatten writes the kept tree out as a flat tree, through the same C walk
// that writes every parsed file (structls_flatten), in a pooled scratch. The
// nodes go straight into the tree's own slice, sized from the last version's
// count (a keystroke changes it little), so no copy of them is made.
func (d *docTree) flatten() (*Tree, error) {
	s := scratchPool.Get().(*Scratch)
	defer scratchPool.Put(s)
	c := s.native()
	buf := make([]Node, max(1024, d.nodes+d.nodes/16))
	var hasError C.bool
	var n int
	for {
		c.tree = d.tree // structls_flatten forgets it (without freeing) once the nodes fit
		n = int(C.structls_flatten(c, allNodes.native(), (*C.flat_node)(unsafe.Pointer(&buf[0])), C.int64_t(len(buf)), &hasError))
		if n <= len(buf) {
			break
		}
		buf = make([]Node, n+n/16)
	}
	if n == C.OUT_OF_MEMORY {
		return nil, ErrOutOfMemory
	}
	d.nodes = n
	return newTree(d.lang, d.source, buf[:n:n], bool(hasError)), nil
}

// free deletes the kept tree.
func (d *docTree) free() {
	if d.tree != nil {
		C.ts_tree_delete(d.tree)
		d.tree, d.source = nil, nil
	}
}

// incrementalReparses counts the reparses that started from a kept tree,
// for tests (IncrementalReparses).
var incrementalReparses atomic.Int64

// IncrementalReparses returns how many times a document was reparsed from
// its previous tree since the process started.
func IncrementalReparses() int64 { return incrementalReparses.Load() }

// diffEdit describes the change from old to new as one tree-sitter edit:
// the bytes between their common prefix and their common suffix were
// replaced. Points count rows and byte columns, as tree-sitter's do.
func diffEdit(old, new []byte) C.TSInputEdit {
	prefix := commonPrefix(old, new)
	suffix := commonSuffix(old[prefix:], new[prefix:])
	start, oldEnd, newEnd := prefix, len(old)-suffix, len(new)-suffix
	return C.TSInputEdit{
		start_byte: C.uint32_t(start), old_end_byte: C.uint32_t(oldEnd), new_end_byte: C.uint32_t(newEnd),
		start_point: pointAt(old, start), old_end_point: pointAt(old, oldEnd), new_end_point: pointAt(new, newEnd),
	}
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+64 <= n && bytes.Equal(a[i:i+64], b[i:i+64]); i += 64 {
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns the length of the longest common suffix of a and b.
func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+64 <= n && bytes.Equal(a[len(a)-i-64:len(a)-i], b[len(b)-i-64:len(b)-i]); i += 64 {
	}
	for i < n && a[len(a)-i-1] == b[len(b)-i-1] {
		i++
	}
	return i
}

// pointAt returns the row and byte column of offset in text.
func pointAt(text []byte, offset int) C.TSPoint {
	row := bytes.Count(text[:offset], []byte{'\n'})
	lineStart := bytes.LastIndexByte(text[:offset], '\n') + 1
	return C.TSPoint{row: C.uint32_t(row), column: C.uint32_t(offset - lineStart)}
}
