// flatten.c — parsing a file and writing its tree out as flat nodes, in one
// call from Go per file.
#include "syntax.h"

// source is the text being parsed, handed to tree-sitter whole.
typedef struct { const char *text; uint32_t length; } source;

static const char *read_source(void *payload, uint32_t byte_index, TSPoint position, uint32_t *bytes_read) {
	const source *s = payload;
	(void)position;
	if (byte_index >= s->length) { *bytes_read = 0; return ""; }
	*bytes_read = s->length - byte_index;
	return s->text + byte_index;
}

// cancelled is the progress callback: it stops the parse once the flag its
// payload points to is set (from Go, when the request is cancelled).
static bool cancelled(TSParseState *state) { return __atomic_load_n((size_t *)state->payload, __ATOMIC_RELAXED) != 0; }

// write_nodes writes the tree's nodes in pre-order into out (room for cap
// nodes) and returns how many there are; when that exceeds cap the caller
// grows out and calls again.
//
// With only >= 0 it writes just the subtrees rooted at nodes of kind only
// (the outermost ones: nested ones are inside them), each root with parent
// -1 and no siblings. The walk still visits every node, but reading a kind
// costs a fraction of writing a node, and most files hold few subtrees of
// the kind a pattern starts with.
static int64_t write_nodes(const TSTree *tree, int32_t only, flat_node *out, int64_t cap, bool *has_error) {
	TSNode root = ts_tree_root_node(tree);
	*has_error = ts_node_has_error(root);
	TSTreeCursor c = ts_tree_cursor_new(root);
	int64_t n = 0;
	int32_t stack[4096]; // index of the current node at each depth
	int32_t last_child[4096];
	int depth = 0;
	int kept = only < 0 ? 0 : -1; // depth of the subtree being written; -1 while none is
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		uint16_t symbol = ts_node_symbol(node);
		if (kept < 0 && symbol == (uint16_t)only) kept = depth;
		if (kept >= 0) {
			if (n < cap) {
				flat_node *f = &out[n];
				f->start = ts_node_start_byte(node);
				f->end = ts_node_end_byte(node);
				TSPoint sp = ts_node_start_point(node), ep = ts_node_end_point(node);
				f->start_row = sp.row; f->start_col = sp.column; f->end_row = ep.row; f->end_col = ep.column;
				f->symbol = symbol;
				f->field = ts_tree_cursor_current_field_id(&c);
				f->flags = (ts_node_is_named(node) ? F_NAMED : 0) | (ts_node_is_extra(node) ? F_EXTRA : 0) |
					(ts_node_is_missing(node) ? F_MISSING : 0) | (symbol == 0xFFFF ? F_ERROR : 0);
				f->parent = depth > kept ? stack[depth - 1] : -1;
				f->first_child = -1; f->next_sibling = -1; f->child_count = 0;
				if (depth > kept) {
					flat_node *p = &out[stack[depth - 1]];
					if (p->first_child < 0) p->first_child = (int32_t)n;
					else out[last_child[depth - 1]].next_sibling = (int32_t)n;
					p->child_count++;
					last_child[depth - 1] = (int32_t)n;
				}
			}
			if (depth < 4095) stack[depth] = (int32_t)n;
			n++;
		}
		if (depth < 4095 && ts_tree_cursor_goto_first_child(&c)) { depth++; continue; }
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) { ts_tree_cursor_delete(&c); return n; }
			depth--;
		}
		if (only >= 0 && kept >= depth) kept = -1; // left the subtree being written
	}
}

// write_kept writes the nodes write_nodes would, skipping the walk when a
// cheap look at the tree shows it holds no node of kind only.
static int64_t write_kept(const TSTree *tree, int32_t only, flat_node *out, int64_t cap, bool *has_error) {
	if (only >= 0 && !structls_may_have_kind(tree, (uint16_t)only)) {
		*has_error = ts_node_has_error(ts_tree_root_node(tree));
		return 0;
	}
	return write_nodes(tree, only, out, cap, has_error);
}

// structls_parse parses text — with pooled, or with a fresh parser in the
// scratch arena when pooled is NULL — and writes its nodes into out as
// write_nodes does. It returns -1 when the parse was cancelled, -2 when
// tree-sitter refuses the grammar. When the nodes did not fit (the result
// exceeds cap) the tree is kept for structls_flatten; otherwise it is
// released.
int64_t structls_parse(structls_scratch *s, TSParser *pooled, const TSLanguage *lang, const char *text, uint32_t length,
	int32_t only, flat_node *out, int64_t cap, bool *has_error) {
	structls_release(s);
	s->in_arena = pooled == NULL;
	if (s->in_arena) structls_arena_enter(s);
	TSParser *p = pooled;
	if (!p) {
		p = ts_parser_new();
		if (!ts_parser_set_language(p, lang)) {
			structls_arena_leave();
			structls_arena_reset(s);
			return -2;
		}
	}
	source src = { text, length };
	TSInput input = { &src, read_source, 0, NULL };
	TSParseOptions opts = { &s->cancel, cancelled };
	s->tree = ts_parser_parse_with_options(p, NULL, input, opts);
	if (!s->tree) {
		if (pooled) ts_parser_reset(pooled); // a cancelled parse leaves state behind
		structls_arena_leave();
		structls_release(s);
		return -1;
	}
	int64_t n = write_kept(s->tree, only, out, cap, has_error);
	structls_arena_leave();
	if (n <= cap) structls_release(s);
	return n;
}

// structls_flatten writes the kept tree's nodes again, into a larger out,
// and releases the tree once they fit.
int64_t structls_flatten(structls_scratch *s, int32_t only, flat_node *out, int64_t cap, bool *has_error) {
	if (s->in_arena) structls_arena_enter(s);
	int64_t n = write_kept(s->tree, only, out, cap, has_error);
	structls_arena_leave();
	if (n <= cap) structls_release(s);
	return n;
}

// structls_release frees the kept tree: the arena is rewound, or a tree from
// a pooled parser deleted.
void structls_release(structls_scratch *s) {
	if (s->in_arena) {
		s->tree = NULL;
		structls_arena_reset(s);
		s->in_arena = false;
		return;
	}
	if (s->tree) ts_tree_delete(s->tree);
	s->tree = NULL;
}
