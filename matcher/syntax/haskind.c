// haskind.c — where in a tree are the nodes of a given kind? Asked of every
// file a search parses for one pattern: files without a single node of the
// pattern's root kind cost nothing beyond their parse, and in the others
// only the subtrees of that kind are walked with a cursor and written out.
//
// Walking with the public cursor API costs about as much per node as a tenth
// of the parse; reading tree-sitter's subtrees directly costs a few
// nanoseconds a node. So this walk reads them directly, through mirrors of
// the internal layouts of tree-sitter v0.25 (subtree.h, tree.h, length.h)
// and of the grammar ABI's TSLanguage (parser.h, ABI 13-15), and repeats
// what the cursor does to show a node: which nodes it visits (visible or
// aliased), their positions, and the field each fills. The layouts are
// checked against the public API on every call (the root's kind, range,
// child count and descendant count, the language's counts); when anything
// disagrees the answer is "unsure" and the caller falls back to the cursor
// walk, so a layout change can cost speed but never a match. TestHasKind
// compares the two walks on real trees of twelve grammars that alias
// heavily, and TestSubtreesOfEveryKind the forests they write.
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

enum { INLINE_VISIBLE = 1 << 1, INLINE_EXTRA = 1 << 3, HEAP_VISIBLE = 1 << 0, HEAP_EXTRA = 1 << 2, MAX_DEPTH = 4096 };

static bool is_inline(subtree s) { return s.data.bits & 1; }
static bool is_extra(subtree s) { return is_inline(s) ? s.data.bits & INLINE_EXTRA : s.ptr->flags & HEAP_EXTRA; }
static bool is_visible(subtree s) { return is_inline(s) ? s.data.bits & INLINE_VISIBLE : s.ptr->flags & HEAP_VISIBLE; }
static uint16_t symbol_of(subtree s) { return is_inline(s) ? s.data.symbol : s.ptr->symbol; }
static uint32_t child_count(subtree s) { return is_inline(s) ? 0 : s.ptr->child_count; }

static length padding_of(subtree s) {
	if (!is_inline(s)) return s.ptr->padding;
	return (length){ s.data.padding_bytes, s.data.padding_rows & 0xF, s.data.padding_columns };
}

static length size_of(subtree s) {
	if (!is_inline(s)) return s.ptr->size;
	return (length){ s.data.size_bytes, 0, s.data.size_bytes };
}

// length_add is tree-sitter's: rows add up, and the column restarts on a new row.
static length length_add(length a, length b) {
	return (length){ a.bytes + b.bytes, a.row + b.row, b.row > 0 ? b.column : a.column + b.column };
}

// public_symbol is ts_language_public_symbol: the kind a symbol (or alias)
// is shown as. ERROR (0xFFFF) and the internal error-repetition symbol lie
// beyond the map.
static uint16_t public_symbol(const language *l, uint16_t symbol) {
	return symbol < l->symbol_count + l->alias_count ? l->public_symbol_map[symbol] : symbol;
}

static bool layout_agrees(const TSTree *t) {
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

// ancestor is one node on the path of the walk below: the node, where its
// next child is (index, structural index, position as the cursor counts
// it), and what the cursor's field lookup needs of the node itself.
typedef struct {
	const heap_subtree *node;
	uint32_t next, structural; // the next child's index, and its index among the non-extra children
	length position;           // where the next child starts (its padding included, but the first child's)
	uint32_t structural_in_parent;
	bool relevant, extra; // the node shows (visible, or aliased); it is an extra
} ancestor;

// field_in returns the field a child (by structural index) fills in a
// node of the production, as its non-inherited field map entry says; 0 for
// none (ts_language_field_map).
static uint16_t field_in(const language *l, uint16_t production_id, uint32_t structural) {
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
static uint16_t field_of(const language *l, const ancestor *path, int depth, bool extra, uint32_t structural) {
	if (extra) return 0;
	for (int d = depth;; d--) {
		uint16_t field = field_in(l, path[d].node->production_id, structural);
		if (field || d == 0 || path[d].relevant || path[d].extra) return field;
		structural = path[d].structural_in_parent;
	}
}

// structls_each_of_kind calls found for every outermost node whose kind
// (its public symbol, after aliasing) is kind and that a cursor walk would
// visit, in pre-order, with the field it fills in its parent; found returns
// false to stop the walk. It reads tree-sitter's subtrees directly: a few
// nanoseconds a node, against a cursor's tens. It returns EACH_DONE,
// EACH_STOPPED when found stopped it, or EACH_UNSURE when it cannot walk
// this tree (a layout it does not know, or deeper than it follows): then
// nothing was reported, and the caller walks with a cursor.
int structls_each_of_kind(const TSTree *t, uint16_t kind, each_found found, void *ctx) {
	if (!layout_agrees(t)) return EACH_UNSURE;
	const tree *tr = (const tree *)t;
	const language *l = tr->lang;
	subtree root = tr->root;
	length position = padding_of(root);
	if (public_symbol(l, symbol_of(root)) == kind) {
		return found(ctx, ts_node_new(t, &tr->root, position, 0), 0) ? EACH_DONE : EACH_STOPPED;
	}
	if (child_count(root) == 0) return EACH_DONE;
	ancestor path[MAX_DEPTH];
	int depth = 0;
	path[0] = (ancestor){ .node = root.ptr, .position = position, .relevant = true };
	while (depth >= 0) {
		ancestor *at = &path[depth];
		const heap_subtree *parent = at->node;
		if (at->next == parent->child_count) { depth--; continue; }
		const subtree *child = (const subtree *)parent - parent->child_count + at->next;
		if (at->next > 0) at->position = length_add(at->position, padding_of(*child));
		length start = at->position;
		at->position = length_add(at->position, size_of(*child));
		at->next++;
		bool extra = is_extra(*child);
		uint16_t alias = 0;
		uint32_t structural = at->structural;
		if (!extra) {
			if (parent->production_id && structural < l->max_alias_sequence_length)
				alias = l->alias_sequences[parent->production_id * l->max_alias_sequence_length + structural];
			at->structural++;
		}
		bool relevant = is_visible(*child) || alias;
		if (relevant && public_symbol(l, alias ? alias : symbol_of(*child)) == kind) {
			if (!found(ctx, ts_node_new(t, child, start, alias), field_of(l, path, depth, extra, structural))) return EACH_STOPPED;
			continue; // outermost only: its subtree is the caller's
		}
		if (child_count(*child) > 0) {
			if (depth + 1 == MAX_DEPTH) return EACH_UNSURE;
			depth++;
			path[depth] = (ancestor){ .node = child->ptr, .position = start, .structural_in_parent = structural,
				.relevant = relevant, .extra = extra };
		}
	}
	return EACH_DONE;
}

// stop_at_first is the each_found of structls_may_have_kind.
static bool stop_at_first(void *ctx, TSNode node, uint16_t field) {
	(void)node, (void)field;
	*(bool *)ctx = true;
	return false;
}

// structls_may_have_kind reports whether the tree may hold a node whose kind
// (its public symbol, after aliasing) is kind: false only when it surely
// does not.
bool structls_may_have_kind(const TSTree *t, uint16_t kind) {
	bool seen = false;
	return structls_each_of_kind(t, kind, stop_at_first, &seen) == EACH_UNSURE || seen;
}

// structls_kinds_present is for TestHasKind: it marks in walked the kind of
// every node the cursor visits, and in direct what structls_may_have_kind
// answers for each of the count kinds.
void structls_kinds_present(const TSTree *t, bool *direct, bool *walked, uint32_t count) {
	for (uint32_t k = 0; k < count; k++) direct[k] = structls_may_have_kind(t, (uint16_t)k);
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
	for (;;) {
		uint16_t symbol = ts_node_symbol(ts_tree_cursor_current_node(&c));
		if (symbol < count) walked[symbol] = true;
		if (ts_tree_cursor_goto_first_child(&c)) continue;
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) { ts_tree_cursor_delete(&c); return; }
		}
	}
}
