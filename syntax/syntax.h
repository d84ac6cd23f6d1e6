// syntax.h — the C side of package syntax: the parts of the tree-sitter C API
// (v0.25, api.h) it calls, and its own arena, parse and flatten functions.
// The tree-sitter library itself is linked in by go-tree-sitter
// (third_party/go-tree-sitter).
#ifndef STRUCTLS_SYNTAX_H
#define STRUCTLS_SYNTAX_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct TSTree TSTree;
typedef struct TSParser TSParser;
typedef struct TSLanguage TSLanguage;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
typedef struct { uint32_t row; uint32_t column; } TSPoint;
typedef struct {
	void *payload;
	const char *(*read)(void *payload, uint32_t byte_index, TSPoint position, uint32_t *bytes_read);
	int encoding; // TSInputEncodingUTF8 = 0
	void *decode;
} TSInput;
typedef struct { void *payload; uint32_t current_byte_offset; bool has_error; } TSParseState;
typedef struct { void *payload; bool (*progress_callback)(TSParseState *state); } TSParseOptions;
typedef struct { TSPoint start_point, end_point; uint32_t start_byte, end_byte; } TSRange;

TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
bool ts_parser_set_included_ranges(TSParser *self, const TSRange *ranges, uint32_t count);
void ts_parser_reset(TSParser *self);
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
TSTree *ts_parser_parse_with_options(TSParser *self, const TSTree *old_tree, TSInput input, TSParseOptions options);
void ts_tree_delete(TSTree *self);
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
uint32_t ts_node_child_count(TSNode self);
void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t), void (*new_free)(void *));

// arena_chunk is one block of an arena; its allocations follow the header.
typedef struct arena_chunk {
	struct arena_chunk *next; // the previous, smaller chunk
	size_t size;              // bytes after the header
	size_t used;
	size_t pad;               // keeps the chunk's data 16-byte aligned
} arena_chunk;

// structls_scratch is what one goroutine parses with: the arena its parses
// allocate from, the flag that cancels a parse, and the tree between the
// parse and its release.
enum { ARENA_CLASSES = 128 }; // free lists for blocks of 8, 16, ... 1024 bytes

typedef struct {
	arena_chunk *chunks; // newest (largest) first
	void *free_lists[ARENA_CLASSES]; // freed blocks by size class, linked through their first word
	size_t cancel;       // set (from Go) to stop the current parse
	TSTree *tree;        // the last tree parsed (in the arena), until structls_release
	size_t reserved;     // bytes in chunks
	size_t keep;         // the most a rewound arena keeps for the next file (set from Go)
	void *levels;        // the flatten walk's per-depth state (flatten.c), kept from file to file
	size_t levels_cap;   // depths levels has room for
	void *path;          // the direct flatten walk's ancestors (direct.c), kept from file to file
	size_t path_cap;     // ancestors path has room for
	void *ranges;        // the included ranges of a parse that skips text (flatten.c), kept from file to file
	size_t ranges_cap;   // ranges ranges has room for
} structls_scratch;

// What structls_parse and structls_flatten return instead of a node count.
enum { CANCELLED = -1, REFUSED = -2, OUT_OF_MEMORY = -3 };

// flat_node mirrors Node in tree.go field for field: 28 bytes. Points are
// not stored (Tree derives them from the byte offsets and a line table).
typedef struct {
	uint32_t start, end;
	int32_t parent, first_child, next_sibling;
	uint16_t symbol, field;
	uint8_t flags;
	uint8_t child_count[3]; // little-endian; MAX_STORED_CHILDREN means that many or more
} flat_node;

enum { MAX_STORED_CHILDREN = 0xFFFFFF };
_Static_assert(sizeof(flat_node) == 28, "flat_node must match Node in tree.go");

enum { F_NAMED = 1, F_EXTRA = 2, F_MISSING = 4, F_ERROR = 8, F_PRUNED = 16 };

// walk_filter says which nodes a flatten writes: with only >= 0 just the
// subtrees rooted at nodes of that kind; with opaque (a flag per symbol, or
// NULL) not the descendants of nodes whose symbol is flagged, which are
// written as leaves marked F_PRUNED.
// skip (skip_count pairs of byte offsets, start and end, in order) is text
// the parse leaves out altogether: insides of nodes of opaque kinds, found
// by a cheap scan of the source before it (structls_parse).
typedef struct {
	int32_t only;
	const bool *opaque;
	uint32_t opaque_count;
	const uint32_t *skip;
	uint32_t skip_count;
} walk_filter;

// is_opaque reports whether the filter keeps the children of a node of
// kind symbol out of the walk.
static inline bool is_opaque(walk_filter filter, uint16_t symbol) {
	return filter.opaque && symbol < filter.opaque_count && filter.opaque[symbol];
}

// count_child adds one to a node's stored child count, which stops at
// MAX_STORED_CHILDREN (Tree.ChildCount counts such a node's children).
static inline void count_child(flat_node *p) {
	uint32_t n = p->child_count[0] | (uint32_t)p->child_count[1] << 8 | (uint32_t)p->child_count[2] << 16;
	if (n == MAX_STORED_CHILDREN) return;
	n++;
	p->child_count[0] = n & 0xFF;
	p->child_count[1] = (n >> 8) & 0xFF;
	p->child_count[2] = n >> 16;
}

bool reserve_depth(void **buf, size_t *cap, size_t size, int64_t depth); // flatten.c

// write_direct is the flatten walk of direct.c; structls_cursor_walk, when
// set, makes every flatten walk with the cursor instead (for the tests that
// compare the two).
int64_t write_direct(structls_scratch *s, const TSTree *t, TSNode top, uint16_t top_field, walk_filter filter,
	flat_node *out, int64_t cap, int64_t n);
extern bool structls_cursor_walk;
extern size_t structls_walks;
size_t structls_walk_count(void);

void structls_use_arena_allocator(void);
void structls_arena_enter(structls_scratch *s, jmp_buf *out_of_memory);
void structls_arena_leave(void);
void structls_arena_reset(structls_scratch *s);
void structls_arena_give_back(structls_scratch *s); // every chunk, the kept one too
void structls_scratch_free(structls_scratch *s);

// each_found is told of each node structls_each_of_kind finds, and the
// field it fills in its parent; it returns false to stop the walk.
typedef bool (*each_found)(void *ctx, TSNode node, uint16_t field);
enum { EACH_DONE = 0, EACH_STOPPED = 1, EACH_UNSURE = 2 };
int structls_each_of_kind(const TSTree *tree, uint16_t kind, each_found found, void *ctx);
bool structls_may_have_kind(const TSTree *tree, uint16_t kind);
void structls_kinds_present(const TSTree *t, bool *direct, bool *walked, uint32_t count);

void structls_set_arena_budget(size_t bytes);
size_t structls_arena_bytes(void);

int64_t structls_parse(structls_scratch *s, const TSLanguage *lang, const char *text, uint32_t length,
	walk_filter filter, flat_node *out, int64_t cap, bool *has_error);
int64_t structls_flatten(structls_scratch *s, walk_filter filter, flat_node *out, int64_t cap, bool *has_error);
void structls_release(structls_scratch *s);

#endif
