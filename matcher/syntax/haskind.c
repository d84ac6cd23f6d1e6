// haskind.c — does a tree hold a node of a given kind? Asked of every parsed
// file before its nodes are written out, so that files without a single node
// of a pattern's root kind cost nothing beyond their parse.
//
// Walking with the public cursor API costs about as much per node as a tenth
// of the parse; reading tree-sitter's subtrees directly costs a few
// nanoseconds a node. So this walk reads them directly, through mirrors of
// the internal layouts of tree-sitter v0.25 (subtree.h, tree.h) and of the
// grammar ABI's TSLanguage (parser.h, ABI 13-15). The layouts are checked
// against the public API on every call (the root's kind, child count and
// descendant count, the language's counts); when anything disagrees the
// answer is "maybe" and the caller falls back to the cursor walk, so a
// layout change can cost speed but never a match. TestHasKind compares the
// two walks on real trees of twelve grammars that alias heavily.
#include "syntax.h"

uint32_t ts_node_child_count(TSNode self);
uint32_t ts_node_descendant_count(TSNode self);
uint32_t ts_language_symbol_count(const TSLanguage *self);
uint32_t ts_language_field_count(const TSLanguage *self);
uint32_t ts_language_abi_version(const TSLanguage *self);

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
	uint32_t padding[3], size[3]; // Length: bytes, then extent row and column
	uint32_t lookahead_bytes, error_cost, child_count;
	uint16_t symbol, parse_state;
	uint16_t flags; // visible, named, extra, ... bit fields in declaration order
	uint32_t visible_child_count, named_child_count, visible_descendant_count;
	int32_t dynamic_precedence;
	uint16_t repeat_depth, production_id;
} heap_subtree;

// subtree mirrors the Subtree union: an inline leaf when the lowest bit of
// its first byte is set (a pointer's lowest bit is always clear), else a
// pointer to heap data.
typedef union {
	struct { uint8_t bits; uint8_t symbol; } data; // bits: is_inline, visible, named, extra, ...
	const heap_subtree *ptr;
} subtree;

// tree mirrors the start of struct TSTree (tree.h).
typedef struct { subtree root; const language *lang; } tree;

enum { INLINE_EXTRA = 1 << 3, HEAP_EXTRA = 1 << 2, MAX_DEPTH = 4096 };

static bool is_inline(subtree s) { return s.data.bits & 1; }

// public_symbol is ts_language_public_symbol: the kind a symbol (or alias)
// is shown as. ERROR (0xFFFF) and the internal error-repetition symbol lie
// beyond the map.
static uint16_t public_symbol(const language *l, uint16_t symbol) {
	return symbol < l->symbol_count + l->alias_count ? l->public_symbol_map[symbol] : symbol;
}

static bool layout_agrees(const TSTree *t) {
	const tree *tr = (const tree *)t;
	const language *l = tr->lang;
	TSNode root = ts_tree_root_node(t);
	const TSLanguage *lang = (const TSLanguage *)l;
	if (l->abi_version != ts_language_abi_version(lang) || l->symbol_count + l->alias_count != ts_language_symbol_count(lang) ||
		l->field_count != ts_language_field_count(lang)) return false;
	if (is_inline(tr->root)) return ts_node_child_count(root) == 0;
	const heap_subtree *h = tr->root.ptr;
	uint16_t symbol = public_symbol(l, h->symbol);
	return symbol == ts_node_symbol(root) && (h->child_count > 0 ? h->visible_child_count : 0) == ts_node_child_count(root) &&
		h->visible_descendant_count + 1 == ts_node_descendant_count(root);
}

// structls_may_have_kind reports whether the tree may hold a node whose kind
// (its public symbol, after aliasing) is kind: false only when it surely
// does not.
bool structls_may_have_kind(const TSTree *t, uint16_t kind) {
	if (!layout_agrees(t)) return true;
	const tree *tr = (const tree *)t;
	const language *l = tr->lang;
	struct { const heap_subtree *node; uint32_t next, structural; } stack[MAX_DEPTH];
	int depth = 0;
	subtree root = tr->root;
	uint16_t symbol = is_inline(root) ? root.data.symbol : root.ptr->symbol;
	if (public_symbol(l, symbol) == kind) return true;
	if (is_inline(root) || root.ptr->child_count == 0) return false;
	stack[0].node = root.ptr; stack[0].next = 0; stack[0].structural = 0;
	while (depth >= 0) {
		const heap_subtree *parent = stack[depth].node;
		if (stack[depth].next == parent->child_count) { depth--; continue; }
		const subtree *children = (const subtree *)parent - parent->child_count;
		subtree child = children[stack[depth].next++];
		bool extra = is_inline(child) ? child.data.bits & INLINE_EXTRA : child.ptr->flags & HEAP_EXTRA;
		uint16_t alias = 0;
		if (!extra) {
			if (parent->production_id && stack[depth].structural < l->max_alias_sequence_length)
				alias = l->alias_sequences[parent->production_id * l->max_alias_sequence_length + stack[depth].structural];
			stack[depth].structural++;
		}
		symbol = alias ? alias : is_inline(child) ? child.data.symbol : child.ptr->symbol;
		if (public_symbol(l, symbol) == kind) return true;
		if (!is_inline(child) && child.ptr->child_count > 0) {
			if (depth + 1 == MAX_DEPTH) return true; // too deep to follow: maybe
			depth++;
			stack[depth].node = child.ptr; stack[depth].next = 0; stack[depth].structural = 0;
		}
	}
	return false;
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
