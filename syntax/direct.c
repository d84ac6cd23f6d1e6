// direct.c — writing a subtree out as flat nodes by reading tree-sitter's
// subtrees directly (mirror.h), instead of walking it with a cursor: the
// same nodes in the same order, with the same kinds, ranges, fields and
// flags, without the cursor's cost per node (each of its steps rebuilds
// the node and looks its field up through its run of hidden ancestors):
// a fresh server's first query over the Go standard library took 4% less
// CPU time.
// flatten.c's write_subtree is the cursor walk this must equal, and what
// runs when the tree's layout is not the one mirrored.
#include "mirror.h"

// shown is a node as the cursor shows it: its subtree, where it starts, and
// the alias it is shown as (0 for none).
typedef struct {
	subtree tree;
	length start;
	uint16_t alias;
} shown;

// write_node writes node n of out (when it is within cap): the node shown,
// its kind symbol, the field it fills, its parent (-1 for none) and whether
// its children are left out (opaque); it links it after its parent's last
// child.
static void write_node(const language *l, shown node, uint16_t symbol, uint16_t field, ancestor *parent, bool opaque,
	flat_node *out, int64_t cap, int64_t n) {
	if (n >= cap) return;
	flat_node *f = &out[n];
	f->start = node.start.bytes;
	f->end = node.start.bytes + size_of(node.tree).bytes;
	f->symbol = symbol;
	f->field = field;
	bool named = node.alias ? alias_is_named(l, node.alias) : is_named(node.tree);
	f->flags = (named ? F_NAMED : 0) | (is_extra(node.tree) ? F_EXTRA : 0) | (is_missing(node.tree) ? F_MISSING : 0) |
		(symbol == 0xFFFF ? F_ERROR : 0) | (opaque && visible_child_count(node.tree) > 0 ? F_PRUNED : 0);
	f->first_child = -1;
	f->next_sibling = -1;
	f->child_count[0] = f->child_count[1] = f->child_count[2] = 0;
	f->parent = parent ? parent->written : -1;
	if (!parent) return;
	flat_node *p = &out[parent->written];
	if (p->first_child < 0) p->first_child = (int32_t)n;
	else out[parent->last_child].next_sibling = (int32_t)n;
	count_child(p);
}

// write_direct writes the subtree of top (a node of t, whose layout
// layout_agrees has accepted) as write_subtree does: in pre-order into out
// from index n on, top with no parent and the field top_field, only
// counting past cap; it returns the index after the nodes, or
// OUT_OF_MEMORY. top is read as ts_node_new makes a node: its id is its
// subtree, and its context its position (bytes, row, column) and alias.
int64_t write_direct(structls_scratch *s, const TSTree *t, TSNode top, uint16_t top_field, walk_filter filter,
	flat_node *out, int64_t cap, int64_t n) {
	const language *l = ((const tree *)t)->lang;
	shown node = { *(const subtree *)top.id, { top.context[0], top.context[1], top.context[2] }, (uint16_t)top.context[3] };
	uint16_t symbol = public_symbol(l, node.alias ? node.alias : symbol_of(node.tree));
	bool opaque = is_opaque(filter, symbol);
	write_node(l, node, symbol, top_field, NULL, opaque, out, cap, n);
	if (opaque || child_count(node.tree) == 0) return n + 1;
	if (!reserve_depth(&s->path, &s->path_cap, sizeof(ancestor), 0)) return OUT_OF_MEMORY;
	ancestor *path = s->path;
	path[0] = (ancestor){ .node = node.tree.ptr, .position = node.start, .relevant = true, .written = (int32_t)n, .last_child = -1 };
	n++;
	for (int64_t depth = 0; depth >= 0;) {
		ancestor *at = &path[depth];
		const heap_subtree *parent = at->node;
		if (at->next == parent->child_count) { depth--; continue; }
		const subtree *child = (const subtree *)parent - parent->child_count + at->next;
		if (at->next > 0) at->position = length_add(at->position, padding_of(*child));
		node = (shown){ *child, at->position, 0 };
		at->position = length_add(at->position, size_of(*child));
		at->next++;
		bool extra = is_extra(*child);
		uint32_t structural = at->structural;
		if (!extra) {
			if (parent->production_id && structural < l->max_alias_sequence_length)
				node.alias = l->alias_sequences[parent->production_id * l->max_alias_sequence_length + structural];
			at->structural++;
		}
		bool relevant = is_visible(*child) || node.alias;
		int32_t owner = at->owner;
		opaque = false;
		if (relevant) {
			symbol = public_symbol(l, node.alias ? node.alias : symbol_of(*child));
			opaque = is_opaque(filter, symbol);
			ancestor *written_parent = &path[owner];
			write_node(l, node, symbol, field_of(l, path, (int)depth, extra, structural), written_parent, opaque, out, cap, n);
			written_parent->last_child = (int32_t)n;
			owner = (int32_t)depth + 1;
			n++;
		}
		if (opaque || child_count(*child) == 0) continue;
		if (!reserve_depth(&s->path, &s->path_cap, sizeof(ancestor), depth + 1)) return OUT_OF_MEMORY;
		path = s->path;
		depth++;
		path[depth] = (ancestor){ .node = child->ptr, .position = node.start, .structural_in_parent = structural,
			.relevant = relevant, .extra = extra, .written = relevant ? (int32_t)n - 1 : -1, .last_child = -1, .owner = owner };
	}
	return n;
}
