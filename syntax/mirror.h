// mirror.h — tree-sitter v0.25's subtrees read directly: mirrors of the
// internal layouts of subtree.h, tree.h and length.h and of the grammar
// ABI's TSLanguage (parser.h, ABI 13-15), and what the tree cursor does on
// top of them (which nodes it shows, where, and the field each fills).
// Walking with the public cursor API costs about as much per node as a
// tenth of the parse; reading the subtrees directly costs a few
// nanoseconds a node. haskind.c finds the nodes of a kind this way, and
// direct.c writes trees out.
//
// Whoever reads a tree through these mirrors first asks layout_agrees,
// which checks them against the public API (the root's kind, range, child
// count and descendant count, the language's counts); when anything
// disagrees the caller uses the cursor instead, so a layout change can
// cost speed but never a node. TestHasKind, TestSubtreesOfEveryKind and
// TestDirectWriteMatchesCursor compare the two on real trees of twelve
// grammars that alias heavily.
#ifndef STRUCTLS_MIRROR_H
#define STRUCTLS_MIRROR_H

#include "syntax.h"

uint32_t ts_node_child_count(TSNode self);
uint32_t ts_node_descendant_count(TSNode self);
uint32_t ts_language_symbol_count(const TSLanguage *self);
uint32_t ts_language_field_count(const TSLanguage *self);
uint32_t ts_language_abi_version(const TSLanguage *self);

// length mirrors Length (length.h): bytes, then the extent's row and column.
typedef struct { uint32_t bytes, row, column; } length;

// ts_node_new is the library's own (node.c, not in api.h): the node of a
// subtree at a position, shown as alias when not 0.
TSNode ts_node_new(const TSTree *tree, const void *subtree, length position, uint16_t alias);

// language mirrors the start of struct TSLanguage (parser.h).
typedef struct {
	uint32_t abi_version, symbol_count, alias_count, token_count, external_token_count, state_count,
		large_state_count, production_id_count, field_count;
	uint16_t max_alias_sequence_length;
	const void *parse_table, *small_parse_table, *small_parse_table_map, *parse_actions, *symbol_names,
		*field_names, *field_map_slices, *field_map_entries, *symbol_metadata;
	const uint16_t *public_symbol_map;
	const uint16_t *alias_map;
	const uint16_t *alias_sequences;
} language;

// heap_subtree mirrors the start of SubtreeHeapData (subtree.h); the
// subtree's children are stored right before it.
typedef struct {
	uint32_t ref_count;
	length padding, size;
	uint32_t lookahead_bytes, error_cost, child_count;
	uint16_t symbol, parse_state;
	uint16_t flags; // visible, named, extra, ... bit fields in declaration order
	uint32_t visible_child_count, named_child_count, visible_descendant_count;
	int32_t dynamic_precedence;
	uint16_t repeat_depth, production_id;
} heap_subtree;

// inline_subtree mirrors SubtreeInlineData (subtree.h) on a little-endian
// machine: a leaf small enough to live in the pointer's place.
typedef struct {
	uint8_t bits; // is_inline, visible, named, extra, ... bit fields in declaration order
	uint8_t symbol;
	uint16_t parse_state;
	uint8_t padding_columns;
	uint8_t padding_rows; // the low 4 bits; lookahead bytes above
	uint8_t padding_bytes;
	uint8_t size_bytes;
} inline_subtree;

// subtree mirrors the Subtree union: an inline leaf when the lowest bit of
// its first byte is set (a pointer's lowest bit is always clear), else a
// pointer to heap data.
typedef union {
	inline_subtree data;
	const heap_subtree *ptr;
} subtree;

// tree mirrors the start of struct TSTree (tree.h).
typedef struct { subtree root; const language *lang; } tree;

// field_map_entry and map_slice mirror TSFieldMapEntry and TSMapSlice (parser.h).
typedef struct { uint16_t field_id; uint8_t child_index; bool inherited; } field_map_entry;
typedef struct { uint16_t index, length; } map_slice;

// The flag bits of inline_subtree.bits and heap_subtree.flags.
enum {
	INLINE_VISIBLE = 1 << 1, INLINE_NAMED = 1 << 2, INLINE_EXTRA = 1 << 3, INLINE_MISSING = 1 << 5,
	HEAP_VISIBLE = 1 << 0, HEAP_NAMED = 1 << 1, HEAP_EXTRA = 1 << 2, HEAP_MISSING = 1 << 9,
	MAX_DEPTH = 4096,
};

static inline bool is_inline(subtree s) { return s.data.bits & 1; }
static inline bool is_extra(subtree s) { return is_inline(s) ? s.data.bits & INLINE_EXTRA : s.ptr->flags & HEAP_EXTRA; }
static inline bool is_visible(subtree s) { return is_inline(s) ? s.data.bits & INLINE_VISIBLE : s.ptr->flags & HEAP_VISIBLE; }
static inline bool is_named(subtree s) { return is_inline(s) ? s.data.bits & INLINE_NAMED : s.ptr->flags & HEAP_NAMED; }
static inline bool is_missing(subtree s) { return is_inline(s) ? s.data.bits & INLINE_MISSING : s.ptr->flags & HEAP_MISSING; }
static inline uint16_t symbol_of(subtree s) { return is_inline(s) ? s.data.symbol : s.ptr->symbol; }
static inline uint32_t child_count(subtree s) { return is_inline(s) ? 0 : s.ptr->child_count; }

// visible_child_count is ts_node_child_count's: the children a cursor shows.
static inline uint32_t visible_child_count(subtree s) { return child_count(s) > 0 ? s.ptr->visible_child_count : 0; }

static inline length padding_of(subtree s) {
	if (!is_inline(s)) return s.ptr->padding;
	return (length){ s.data.padding_bytes, s.data.padding_rows & 0xF, s.data.padding_columns };
}

static inline length size_of(subtree s) {
	if (!is_inline(s)) return s.ptr->size;
	return (length){ s.data.size_bytes, 0, s.data.size_bytes };
}

// length_add is tree-sitter's: rows add up, and the column restarts on a new row.
static inline length length_add(length a, length b) {
	return (length){ a.bytes + b.bytes, a.row + b.row, b.row > 0 ? b.column : a.column + b.column };
}

// public_symbol is ts_language_public_symbol: the kind a symbol (or alias)
// is shown as. ERROR (0xFFFF) and the internal error-repetition symbol lie
// beyond the map.
static inline uint16_t public_symbol(const language *l, uint16_t symbol) {
	return symbol < l->symbol_count + l->alias_count ? l->public_symbol_map[symbol] : symbol;
}

static inline bool layout_agrees(const TSTree *t) {
	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || sizeof(subtree) != 8) return false;
	const tree *tr = (const tree *)t;
	const language *l = tr->lang;
	TSNode root = ts_tree_root_node(t);
	const TSLanguage *lang = (const TSLanguage *)l;
	if (l->abi_version != ts_language_abi_version(lang) || l->symbol_count + l->alias_count != ts_language_symbol_count(lang) ||
		l->field_count != ts_language_field_count(lang)) return false;
	length start = padding_of(tr->root), end = length_add(start, size_of(tr->root));
	if (start.bytes != ts_node_start_byte(root) || end.bytes != ts_node_end_byte(root)) return false;
	if (is_inline(tr->root)) return ts_node_child_count(root) == 0;
	const heap_subtree *h = tr->root.ptr;
	uint16_t symbol = public_symbol(l, h->symbol);
	return symbol == ts_node_symbol(root) && (h->child_count > 0 ? h->visible_child_count : 0) == ts_node_child_count(root) &&
		h->visible_descendant_count + 1 == ts_node_descendant_count(root);
}

// symbol_metadata mirrors TSSymbolMetadata (parser.h).
typedef struct { bool visible, named, supertype; } symbol_metadata;

// alias_is_named is what ts_node_is_named says of a node shown as alias.
static inline bool alias_is_named(const language *l, uint16_t alias) {
	return ((const symbol_metadata *)l->symbol_metadata)[alias].named;
}

// ancestor is one node on the path of a direct walk: the node, where its
// next child is (index, structural index, position as the cursor counts
// it), and what the cursor's field lookup needs of the node itself. A walk
// that writes nodes out (direct.c) also keeps, for the nodes it writes,
// their index in the output and their last child written so far, and for
// every node the depth of the nearest written node at or above it.
typedef struct {
	const heap_subtree *node;
	uint32_t next, structural; // the next child's index, and its index among the non-extra children
	length position;           // where the next child starts (its padding included, but the first child's)
	uint32_t structural_in_parent;
	bool relevant, extra; // the node shows (visible, or aliased); it is an extra
	int32_t written, last_child, owner; // for direct.c
} ancestor;

// field_in returns the field a child (by structural index) fills in a
// node of the production, as its non-inherited field map entry says; 0 for
// none (ts_language_field_map).
static inline uint16_t field_in(const language *l, uint16_t production_id, uint32_t structural) {
	if (l->field_count == 0) return 0;
	map_slice slice = ((const map_slice *)l->field_map_slices)[production_id];
	const field_map_entry *e = (const field_map_entry *)l->field_map_entries + slice.index;
	for (uint16_t i = 0; i < slice.length; i++) {
		if (!e[i].inherited && e[i].child_index == structural) return e[i].field_id;
	}
	return 0;
}

// field_of is ts_tree_cursor_current_field_id for the child of path[depth]
// with the given structural index: the field the child fills, looked up in
// its parent and then, while they do not show, in its ancestors' parents.
static inline uint16_t field_of(const language *l, const ancestor *path, int depth, bool extra, uint32_t structural) {
	if (extra) return 0;
	for (int d = depth;; d--) {
		uint16_t field = field_in(l, path[d].node->production_id, structural);
		if (field || d == 0 || path[d].relevant || path[d].extra) return field;
		structural = path[d].structural_in_parent;
	}
}

#endif
