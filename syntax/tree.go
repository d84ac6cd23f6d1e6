// Package syntax parses source files with tree-sitter and hands the matcher
// flat trees: every node of a file in pre-order in one slice, built by a
// single pass in C, so that matching runs in pure Go without crossing into C
// per node (the Go binding costs about 430 ns a node; the flat pass about 180).
//
// One call into C does a file's whole parse (flatten.c): tree-sitter reads
// the Go bytes in place, allocates from the calling goroutine's arena
// (arena.c), and the nodes are written out — all of them for the server's
// cache, or for a one-off query only the subtrees of the kind the pattern
// starts with, found by reading the tree directly (haskind.c). The cost
// stages follow zoekt's idea: the cheapest test first (literals, in package
// matcher), then the parse, then the direct search for the kind, and only
// then the cursor walk that writes the nodes of those subtrees.
package syntax

import (
	"bytes"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// Node is one syntax node: 28 bytes. Its layout mirrors flat_node in
// syntax.h. Points are not stored: Tree.StartPoint and EndPoint derive them
// from the byte offsets and the file's line table; read the child count
// through Tree.ChildCount.
type Node struct {
	Start, End                      uint32 // byte offsets
	Parent, FirstChild, NextSibling int32  // indexes into Tree.Nodes; -1 for none
	Symbol                          uint16 // the node's kind id
	Field                           uint16 // the field it fills in its parent; 0 for none
	Flags                           uint8
	childCount                      [3]uint8 // little-endian; maxStoredChildren means that many or more
}

// maxStoredChildren is the largest child count a Node stores (24 bits);
// a node with more children has its children counted when asked.
const maxStoredChildren = 1<<24 - 1

// nodeSize is the memory a Node takes, for cache accounting.
const nodeSize = unsafe.Sizeof(Node{})

// Node flags.
const (
	FlagNamed   = 1 << iota // a named node (otherwise an anonymous token such as ";")
	FlagExtra               // an extra such as a comment, allowed anywhere
	FlagMissing             // inserted by error recovery, zero width
	FlagError               // an ERROR node
	FlagPruned              // a node with children that were not written out (ParsePruned)
)

// IsNamed reports whether the node is named.
func (n *Node) IsNamed() bool { return n.Flags&FlagNamed != 0 }

// IsExtra reports whether the node is an extra (a comment, say).
func (n *Node) IsExtra() bool { return n.Flags&FlagExtra != 0 }

// IsMissing reports whether error recovery inserted the node.
func (n *Node) IsMissing() bool { return n.Flags&FlagMissing != 0 }

// IsError reports whether the node is an ERROR node.
func (n *Node) IsError() bool { return n.Flags&FlagError != 0 }

// IsPruned reports whether the node has children in the parsed file that the
// tree leaves out (ParsePruned).
func (n *Node) IsPruned() bool { return n.Flags&FlagPruned != 0 }

// Tree is a parsed file: its source and its nodes in pre-order, the root
// first (from Parse), or only some subtrees of it (from ParseSubtrees).
type Tree struct {
	Lang     *sitter.Language
	Source   []byte
	Nodes    []Node
	kinds    []string                 // kind names by symbol
	hasError bool                     // the whole tree, not just the nodes kept, holds an ERROR or MISSING node
	lines    atomic.Pointer[[]uint32] // the offset each line starts at; made at the first point asked for
}

// Kind returns the kind name of node i.
func (t *Tree) Kind(i int32) string {
	if s := t.Nodes[i].Symbol; s != errorSymbol {
		return t.kinds[s]
	}
	return "ERROR"
}

// Text returns the source text of node i.
func (t *Tree) Text(i int32) []byte { n := &t.Nodes[i]; return t.Source[n.Start:n.End] }

// HasError reports whether the tree holds a syntax error.
func (t *Tree) HasError() bool { return t.hasError }

// Point is a position in a file: a 0-based row and a column counted in
// bytes from the row's start, as tree-sitter's points.
type Point struct{ Row, Column uint32 }

// StartPoint returns where node i starts. Callers use it (and EndPoint,
// ChildCount) rather than the Node fields, so the stored layout may change.
func (t *Tree) StartPoint(i int32) Point { return t.pointAt(t.Nodes[i].Start) }

// EndPoint returns where node i ends (exclusive).
func (t *Tree) EndPoint(i int32) Point { return t.pointAt(t.Nodes[i].End) }

// pointAt returns the point of a byte offset, as tree-sitter counts them:
// rows end at '\n' only, columns count bytes.
func (t *Tree) pointAt(offset uint32) Point {
	lines := t.lineStarts()
	row, found := slices.BinarySearch(lines, offset)
	if !found {
		row-- // lines[0] is 0, so offset lies on an earlier line
	}
	return Point{Row: uint32(row), Column: offset - lines[row]}
}

// lineStarts returns the offset each line of the source starts at, making
// the table at the first call: 4 bytes a line, where storing points in
// every node took 16 bytes a node. Safe for concurrent use (a cached tree
// is read by concurrent queries).
func (t *Tree) lineStarts() []uint32 {
	if lines := t.lines.Load(); lines != nil {
		return *lines
	}
	lines := make([]uint32, 1, bytes.Count(t.Source, []byte{'\n'})+1)
	for i, b := range t.Source {
		if b == '\n' {
			lines = append(lines, uint32(i+1))
		}
	}
	t.lines.Store(&lines)
	return lines
}

// lineTableBytes is the memory the line table takes once made.
func (t *Tree) lineTableBytes() int64 { return int64(len(t.lineStarts())) * 4 }

// ChildCount returns the number of node i's children, named and anonymous.
func (t *Tree) ChildCount(i int32) int {
	c := &t.Nodes[i].childCount
	if n := int(c[0]) | int(c[1])<<8 | int(c[2])<<16; n < maxStoredChildren {
		return n
	}
	n := 0
	for c := t.Nodes[i].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		n++
	}
	return n
}

// Children returns the indexes of node i's children, in order.
func (t *Tree) Children(i int32) []int32 {
	out := make([]int32, 0, t.ChildCount(i))
	for c := t.Nodes[i].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		out = append(out, c)
	}
	return out
}

// kindNames caches each language's kind names, indexed by symbol.
var kindNames sync.Map // *sitter.Language → []string

func kindsOf(lang *sitter.Language) []string {
	if k, ok := kindNames.Load(lang); ok {
		return k.([]string)
	}
	n := lang.NodeKindCount()
	names := make([]string, n)
	for id := range uint16(n) {
		names[id] = lang.NodeKindForId(id)
	}
	kindNames.Store(lang, names)
	return names
}
