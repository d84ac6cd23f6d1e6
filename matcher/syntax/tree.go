// Package syntax parses source files with tree-sitter and hands the matcher
// flat trees: every node of a file in pre-order in one slice, built by a
// single pass in C, so that matching runs in pure Go without crossing into C
// per node (the Go binding costs about 430 ns a node; the flat pass about 180).
//
// One call into C does a file's whole parse (flatten.c): tree-sitter reads
// the Go bytes in place, allocates from the calling goroutine's arena
// (arena.c), and the nodes are written out — all of them for the server's
// cache, or for a one-off query only the subtrees of the kind the pattern
// starts with, after a direct look at the tree (haskind.c) has shown there
// are any. The cost stages follow zoekt's idea: the cheapest test first
// (literals, in package matcher), then the parse, then the kind check, and
// only then the walk that writes nodes.
package syntax

import (
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Node is one syntax node. Its layout mirrors flat_node in flatten.go.
type Node struct {
	Start, End                         uint32 // byte offsets
	Parent, FirstChild, NextSibling    int32  // indexes into Tree.Nodes; -1 for none
	ChildCount                         uint32
	StartRow, StartCol, EndRow, EndCol uint32 // points; columns count bytes, as tree-sitter's do
	Symbol                             uint16 // the node's kind id
	Field                              uint16 // the field it fills in its parent; 0 for none
	Flags                              uint8
	_                                  [3]byte
}

// nodeSize is the memory a Node takes, for cache accounting.
const nodeSize = unsafe.Sizeof(Node{})

// Node flags.
const (
	FlagNamed   = 1 << iota // a named node (otherwise an anonymous token such as ";")
	FlagExtra               // an extra such as a comment, allowed anywhere
	FlagMissing             // inserted by error recovery, zero width
	FlagError               // an ERROR node
)

// IsNamed reports whether the node is named.
func (n *Node) IsNamed() bool { return n.Flags&FlagNamed != 0 }

// IsExtra reports whether the node is an extra (a comment, say).
func (n *Node) IsExtra() bool { return n.Flags&FlagExtra != 0 }

// IsMissing reports whether error recovery inserted the node.
func (n *Node) IsMissing() bool { return n.Flags&FlagMissing != 0 }

// IsError reports whether the node is an ERROR node.
func (n *Node) IsError() bool { return n.Flags&FlagError != 0 }

// Tree is a parsed file: its source and its nodes in pre-order, the root
// first (from Parse), or only some subtrees of it (from ParseSubtrees).
type Tree struct {
	Lang     *sitter.Language
	Source   []byte
	Nodes    []Node
	kinds    []string // kind names by symbol
	hasError bool     // the whole tree, not just the nodes kept, holds an ERROR or MISSING node
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
func (t *Tree) StartPoint(i int32) Point {
	n := &t.Nodes[i]
	return Point{n.StartRow, n.StartCol}
}

// EndPoint returns where node i ends (exclusive).
func (t *Tree) EndPoint(i int32) Point {
	n := &t.Nodes[i]
	return Point{n.EndRow, n.EndCol}
}

// ChildCount returns the number of node i's children, named and anonymous.
func (t *Tree) ChildCount(i int32) int { return int(t.Nodes[i].ChildCount) }

// Children returns the indexes of node i's children, in order.
func (t *Tree) Children(i int32) []int32 {
	out := make([]int32, 0, t.Nodes[i].ChildCount)
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
