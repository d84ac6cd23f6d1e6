// flatten.c — parsing a file and writing its tree out as flat nodes, in one
// call from Go per file.
#include <setjmp.h>
#include <stdlib.h>

#include "mirror.h"

bool structls_cursor_walk;

// structls_walks counts the walks that write trees out (write_kept), for
// the test that a whole tree larger than its slice is walked once.
size_t structls_walks;

size_t structls_walk_count(void) { return __atomic_load_n(&structls_walks, __ATOMIC_RELAXED); }

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

// level is what write_subtree keeps for each depth of the walk: the index of
// the node being written there, and of its last child written so far.
typedef struct { int32_t node, last_child; } level;

// reserve_depth makes room in a walk's per-depth buffer (one of the
// scratch's, of elements of size bytes, room for *cap) for depth+1
// elements; false when memory ran out. (include_all_but's ranges grow the
// same way.) The room lasts from file to file
// (trees are rarely deep), and the walks have no depth limit: code nested
// 100,000 levels deep is written out like any other.
bool reserve_depth(void **buf, size_t *cap, size_t size, int64_t depth) {
	if ((size_t)depth < *cap) return true;
	size_t n = *cap ? *cap : 256;
	while (n <= (size_t)depth) n *= 2;
	void *grown = realloc(*buf, n * size);
	if (!grown) return false;
	*buf = grown;
	*cap = n;
	return true;
}

// write_subtree writes the nodes of the subtree of top in pre-order into
// out (room for cap nodes) from index n on, top with no parent or sibling
// and the field top_field, and returns the index after them; past cap it
// only counts (the caller grows out and calls again). It returns
// OUT_OF_MEMORY when the room for its walk could not be had.
//
// The walk never enters a node whose kind filter.opaque flags: it is written
// as a leaf, marked F_PRUNED when it has children. Skipping function bodies
// this way leaves an outline most of the walk's cost undone.
static int64_t write_subtree(structls_scratch *s, TSNode top, uint16_t top_field, walk_filter filter, flat_node *out, int64_t cap, int64_t n) {
	TSTreeCursor c = ts_tree_cursor_new(top);
	int64_t depth = 0;
	for (;;) {
		if (!reserve_depth(&s->levels, &s->levels_cap, sizeof(level), depth)) { ts_tree_cursor_delete(&c); return OUT_OF_MEMORY; }
		level *levels = s->levels;
		TSNode node = ts_tree_cursor_current_node(&c);
		uint16_t symbol = ts_node_symbol(node);
		bool opaque = is_opaque(filter, symbol);
		if (n < cap) {
			flat_node *f = &out[n];
			f->start = ts_node_start_byte(node);
			f->end = ts_node_end_byte(node);
			f->symbol = symbol;
			f->field = depth > 0 ? ts_tree_cursor_current_field_id(&c) : top_field;
			f->flags = (ts_node_is_named(node) ? F_NAMED : 0) | (ts_node_is_extra(node) ? F_EXTRA : 0) |
				(ts_node_is_missing(node) ? F_MISSING : 0) | (symbol == 0xFFFF ? F_ERROR : 0) |
				(opaque && ts_node_child_count(node) > 0 ? F_PRUNED : 0);
			f->parent = depth > 0 ? levels[depth - 1].node : -1;
			f->first_child = -1; f->next_sibling = -1;
			f->child_count[0] = f->child_count[1] = f->child_count[2] = 0;
			if (depth > 0) {
				flat_node *p = &out[levels[depth - 1].node];
				if (p->first_child < 0) p->first_child = (int32_t)n;
				else out[levels[depth - 1].last_child].next_sibling = (int32_t)n;
				count_child(p);
				levels[depth - 1].last_child = (int32_t)n;
			}
		}
		levels[depth].node = (int32_t)n;
		n++;
		if (!opaque && ts_tree_cursor_goto_first_child(&c)) { depth++; continue; }
		for (;;) {
			if (depth == 0) { ts_tree_cursor_delete(&c); return n; }
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			ts_tree_cursor_goto_parent(&c);
			depth--;
		}
	}
}

// forest is what write_found needs to write each subtree found.
typedef struct {
	structls_scratch *s;
	const TSTree *tree;
	bool direct; // the tree's layout is the one mirror.h reads
	walk_filter filter;
	flat_node *out;
	int64_t cap, n; // n: the nodes written (or counted) so far; OUT_OF_MEMORY once memory ran out
} forest;

// write_found is the each_found that writes each subtree found: read
// directly when the tree's layout allows, else with a cursor.
static bool write_found(void *ctx, TSNode node, uint16_t field) {
	forest *f = ctx;
	f->n = f->direct ? write_direct(f->s, f->tree, node, field, f->filter, f->out, f->cap, f->n)
	                 : write_subtree(f->s, node, field, f->filter, f->out, f->cap, f->n);
	return f->n >= 0;
}

// write_of_kind writes the outermost subtrees rooted at nodes of kind only
// found with a cursor, for a tree structls_each_of_kind could not walk:
// every node is visited, but reading a kind costs a fraction of writing a
// node.
static void write_of_kind(const TSTree *tree, forest *f) {
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		bool kept = ts_node_symbol(node) == (uint16_t)f->filter.only;
		if (kept && !write_found(f, node, ts_tree_cursor_current_field_id(&c))) break;
		if (!kept && ts_tree_cursor_goto_first_child(&c)) continue;
		bool more = false;
		while (!(more = ts_tree_cursor_goto_next_sibling(&c)) && ts_tree_cursor_goto_parent(&c)) {}
		if (!more) break;
	}
	ts_tree_cursor_delete(&c);
}

// write_kept writes the tree's nodes in pre-order into out (room for cap
// nodes) and returns how many there are; when that exceeds cap the caller
// grows out and calls again. With filter.only >= 0 it writes just the
// subtrees rooted at nodes of kind only (the outermost ones: nested ones
// are inside them), each root with parent -1 and no siblings, found by
// reading the tree directly (haskind.c): most files hold few subtrees of
// the kind a pattern starts with, and cost little beyond their parse. The
// nodes are read directly too (direct.c), unless the tree's layout is not
// the one mirrored.
static int64_t write_kept(structls_scratch *s, const TSTree *tree, walk_filter filter, flat_node *out, int64_t cap, bool *has_error) {
	__atomic_add_fetch(&structls_walks, 1, __ATOMIC_RELAXED);
	TSNode root = ts_tree_root_node(tree);
	*has_error = ts_node_has_error(root);
	forest f = { s, tree, !structls_cursor_walk && layout_agrees(tree), filter, out, cap, 0 };
	if (filter.only < 0) {
		write_found(&f, root, 0);
		return f.n;
	}
	if (!f.direct || structls_each_of_kind(tree, (uint16_t)filter.only, write_found, &f) == EACH_UNSURE) {
		f.n = 0; // forget what the direct walk wrote before it gave up
		write_of_kind(tree, &f);
	}
	return f.n;
}

// point_at advances *at (a byte offset and its point in text) to off.
static void point_at(const char *text, uint32_t off, uint32_t *at, TSPoint *point) {
	for (; *at < off; (*at)++) {
		if (text[*at] == '\n') { point->row++; point->column = 0; }
		else point->column++;
	}
}

// include_all_but tells the parser to leave out the filter's skip ranges of
// text: it parses the ranges between them, with their real positions. The
// ranges are built in the scratch, kept from file to file. When it cannot
// (false: no memory for them, or tree-sitter refused them) the whole text
// is parsed, which costs time but changes no answer.
static bool include_all_but(structls_scratch *s, TSParser *p, const char *text, uint32_t length, walk_filter filter) {
	if (filter.skip_count == 0) return true;
	if (!reserve_depth(&s->ranges, &s->ranges_cap, sizeof(TSRange), filter.skip_count)) return false;
	TSRange *ranges = s->ranges;
	uint32_t at = 0, n = 0;
	TSPoint point = { 0, 0 };
	TSRange r = { { 0, 0 }, { 0, 0 }, 0, 0 };
	for (uint32_t i = 0; i < filter.skip_count; i++) {
		uint32_t start = filter.skip[2 * i], end = filter.skip[2 * i + 1];
		if (start < r.start_byte || end <= start || end > length) continue; // out of order, empty or past the end: not skipped
		point_at(text, start, &at, &point);
		r.end_byte = start, r.end_point = point;
		ranges[n++] = r;
		point_at(text, end, &at, &point);
		r.start_byte = end, r.start_point = point;
	}
	r.end_byte = UINT32_MAX, r.end_point = (TSPoint){ UINT32_MAX, UINT32_MAX };
	ranges[n++] = r;
	return ts_parser_set_included_ranges(p, ranges, n);
}

// whole_tree_nodes is how many nodes write_kept writes of tree with a filter
// that keeps every node (tree-sitter counts the visible nodes below each
// node, aliased ones included, as the walks see them), and -1 for any other
// filter. structls_parse returns it without walking a tree that will not
// fit, so that the caller grows out once and the walk runs once; the
// caller still checks the count structls_flatten returns.
static int64_t whole_tree_nodes(const TSTree *tree, walk_filter filter) {
	if (filter.only >= 0 || filter.opaque) return -1;
	return ts_node_descendant_count(ts_tree_root_node(tree));
}

// structls_parse parses text with a fresh parser in the scratch arena and
// writes its nodes into out as write_kept does. It returns CANCELLED when
// the parse was cancelled, REFUSED when tree-sitter refuses the grammar,
// OUT_OF_MEMORY when memory ran out (in tree-sitter or in the walk). When
// the nodes did not fit (the result exceeds cap) the tree is kept for
// structls_flatten; otherwise it is released.
//
// Running out of memory inside tree-sitter, which cannot recover from it,
// jumps back here (arena.c): everything the parse had is in the arena, so
// rewinding the arena undoes it, and the process goes on.
int64_t structls_parse(structls_scratch *s, const TSLanguage *lang, const char *text, uint32_t length,
	walk_filter filter, flat_node *out, int64_t cap, bool *has_error) {
	structls_release(s);
	jmp_buf out_of_memory;
	if (setjmp(out_of_memory)) {
		structls_arena_leave();
		structls_release(s);
		return OUT_OF_MEMORY;
	}
	structls_arena_enter(s, &out_of_memory);
	TSParser *p = ts_parser_new();
	if (!ts_parser_set_language(p, lang)) {
		structls_arena_leave();
		structls_release(s);
		return REFUSED;
	}
	include_all_but(s, p, text, length, filter);
	source src = { text, length };
	TSInput input = { &src, read_source, 0, NULL };
	TSParseOptions opts = { &s->cancel, cancelled };
	s->tree = ts_parser_parse_with_options(p, NULL, input, opts);
	if (!s->tree) {
		structls_arena_leave();
		structls_release(s);
		return CANCELLED;
	}
	int64_t whole = whole_tree_nodes(s->tree, filter);
	if (whole > cap) {
		// Walking it now would write cap nodes only to write them again.
		*has_error = ts_node_has_error(ts_tree_root_node(s->tree));
		structls_arena_leave();
		return whole;
	}
	int64_t n = write_kept(s, s->tree, filter, out, cap, has_error);
	structls_arena_leave();
	if (n <= cap) structls_release(s);
	return n;
}

// structls_flatten writes the kept tree's nodes again, into a larger out,
// and releases the tree once they fit.
int64_t structls_flatten(structls_scratch *s, walk_filter filter, flat_node *out, int64_t cap, bool *has_error) {
	jmp_buf out_of_memory;
	if (setjmp(out_of_memory)) {
		structls_arena_leave();
		structls_release(s);
		return OUT_OF_MEMORY;
	}
	structls_arena_enter(s, &out_of_memory);
	int64_t n = write_kept(s, s->tree, filter, out, cap, has_error);
	structls_arena_leave();
	if (n <= cap) structls_release(s);
	return n;
}

// structls_release frees the kept tree, and everything else the last parse
// allocated, by rewinding the arena.
void structls_release(structls_scratch *s) {
	s->tree = NULL;
	structls_arena_reset(s);
}
