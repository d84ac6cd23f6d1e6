package syntax

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// The parts of the tree-sitter C API (v0.25, api.h) used here. The library
// itself is linked in by github.com/tree-sitter/go-tree-sitter.
typedef struct TSTree TSTree;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
typedef struct { uint32_t row; uint32_t column; } TSPoint;

TSNode ts_tree_root_node(const TSTree *self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
uint16_t ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
TSPoint ts_node_start_point(TSNode self);
TSPoint ts_node_end_point(TSNode self);
bool ts_node_is_named(TSNode self);
bool ts_node_is_extra(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_has_error(TSNode self);
void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t), void (*new_free)(void *));

// use_libc_allocator makes tree-sitter allocate with libc directly.
static void use_libc_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }

// flat_node mirrors Node in tree.go field for field.
typedef struct {
	uint32_t start, end;
	int32_t parent, first_child, next_sibling;
	uint32_t child_count;
	uint32_t start_row, start_col, end_row, end_col;
	uint16_t symbol, field;
	uint8_t flags;
	uint8_t pad[3];
} flat_node;

enum { F_NAMED = 1, F_EXTRA = 2, F_MISSING = 4, F_ERROR = 8, F_HAS_ERROR = 16 };

// flatten writes the tree's nodes in pre-order into out (room for cap
// nodes) and returns how many there are; when that exceeds cap the caller
// grows out and calls again. One call walks the whole tree in C, so Go
// crosses into C once per file instead of once per node.
static int64_t flatten(const TSTree *tree, flat_node *out, int64_t cap) {
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	int64_t n = 0;
	int32_t stack[4096]; // index of the current node at each depth
	int32_t last_child[4096];
	int depth = 0;
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		if (n < cap) {
			flat_node *f = &out[n];
			f->start = ts_node_start_byte(node);
			f->end = ts_node_end_byte(node);
			TSPoint sp = ts_node_start_point(node), ep = ts_node_end_point(node);
			f->start_row = sp.row; f->start_col = sp.column; f->end_row = ep.row; f->end_col = ep.column;
			f->symbol = ts_node_symbol(node);
			f->field = ts_tree_cursor_current_field_id(&c);
			f->flags = (ts_node_is_named(node) ? F_NAMED : 0) | (ts_node_is_extra(node) ? F_EXTRA : 0) |
				(ts_node_is_missing(node) ? F_MISSING : 0) | (f->symbol == 0xFFFF ? F_ERROR : 0) |
				(n == 0 && ts_node_has_error(node) ? F_HAS_ERROR : 0);
			f->parent = depth > 0 ? stack[depth - 1] : -1;
			f->first_child = -1; f->next_sibling = -1; f->child_count = 0;
			if (depth > 0) {
				flat_node *p = &out[stack[depth - 1]];
				if (p->first_child < 0) p->first_child = (int32_t)n;
				else out[last_child[depth - 1]].next_sibling = (int32_t)n;
				p->child_count++;
				last_child[depth - 1] = (int32_t)n;
			}
		}
		if (depth < 4095) stack[depth] = (int32_t)n;
		n++;
		if (depth < 4095 && ts_tree_cursor_goto_first_child(&c)) { depth++; continue; }
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) { ts_tree_cursor_delete(&c); return n; }
			depth--;
		}
	}
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// go-tree-sitter v0.25.0 installs an allocator that calls back into Go for
// every malloc and free tree-sitter makes (so a Go program could track them):
// a cgo callback per allocation, a fifth of all parsing time. Nothing here
// needs that, so tree-sitter gets libc's allocator back (NULL means the
// default). Memory allocated before is libc's too, so frees stay paired.
func init() { C.use_libc_allocator() }

// treePointer returns the TSTree* inside a go-tree-sitter v0.25.0 Tree, whose
// only field it is. TestFlattenMatchesBinding guards this assumption.
func treePointer(t *sitter.Tree) *C.TSTree {
	return *(**C.TSTree)(unsafe.Pointer(t))
}

// flatten converts a parsed tree into Nodes with one call into C.
func flatten(t *sitter.Tree, sizeHint int) []Node {
	nodes := make([]Node, max(sizeHint, 64))
	for {
		n := int(C.flatten(treePointer(t), (*C.flat_node)(unsafe.Pointer(&nodes[0])), C.int64_t(len(nodes))))
		if n <= len(nodes) {
			return nodes[:n]
		}
		nodes = make([]Node, n)
	}
}
