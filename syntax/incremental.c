// incremental.c — keeping an open document's tree-sitter tree between its
// versions, so that a new version is reparsed from the old tree instead of
// from nothing. Unlike structls_parse, these trees live in libc memory: they
// outlive the call that made them (the arena is rewound after every file).
#include "incremental.h"

// input_source is the text being parsed, handed to tree-sitter whole.
typedef struct { const char *text; uint32_t length; } input_source;

static const char *read_input(void *payload, uint32_t byte_index, TSPoint position, uint32_t *bytes_read) {
	const input_source *s = payload;
	(void)position;
	if (byte_index >= s->length) { *bytes_read = 0; return ""; }
	*bytes_read = s->length - byte_index;
	return s->text + byte_index;
}

static bool reparse_cancelled(TSParseState *state) { return __atomic_load_n((size_t *)state->payload, __ATOMIC_RELAXED) != 0; }

// structls_reparse parses text into a new tree that the caller owns (free it
// with ts_tree_delete). With old != NULL, the old tree — the tree of the
// previous text — is first edited by edit (on a shallow copy: old itself is
// left as it was) and its unchanged subtrees are reused; *reused says so.
//
// Tree-sitter's incremental parse gives the tree a parse from nothing gives
// only while the text is free of syntax errors: with errors, its error
// recovery may start from other states and settle elsewhere (seen in Java,
// TSX and Python; TestIncrementalReparseLanguages). So a reused tree that
// holds an error is thrown away and the text parsed again from nothing,
// whose tree is the one kept.
//
// It returns NULL when the parse was cancelled through *cancel, or when the
// grammar is refused (*refused is then set).
TSTree *structls_reparse(const TSLanguage *lang, const TSTree *old, const TSInputEdit *edit,
	const char *text, uint32_t length, size_t *cancel, bool *refused, bool *reused) {
	*refused = false;
	*reused = false;
	TSParser *p = ts_parser_new();
	if (!ts_parser_set_language(p, lang)) {
		ts_parser_delete(p);
		*refused = true;
		return NULL;
	}
	TSTree *edited = NULL;
	if (old) {
		edited = ts_tree_copy(old);
		ts_tree_edit(edited, edit);
	}
	input_source src = { text, length };
	TSInput input = { &src, read_input, 0, NULL };
	TSParseOptions opts = { cancel, reparse_cancelled };
	TSTree *tree = ts_parser_parse_with_options(p, edited, input, opts);
	if (edited) ts_tree_delete(edited);
	*reused = edited && tree;
	if (*reused && ts_node_has_error(ts_tree_root_node(tree))) {
		ts_tree_delete(tree);
		*reused = false;
		tree = ts_parser_parse_with_options(p, NULL, input, opts);
	}
	ts_parser_delete(p);
	return tree;
}
