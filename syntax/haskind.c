// haskind.c — where in a tree are the nodes of a given kind? Asked of every
// file a search parses for one pattern: files without a single node of the
// pattern's root kind cost nothing beyond their parse, and in the others
// only the subtrees of that kind are written out. The walk reads
// tree-sitter's subtrees directly (mirror.h); when it cannot, it says
// "unsure" and the caller walks with a cursor, so a layout change can cost
// speed but never a match.
#include "mirror.h"

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
