// incremental.h — the C side of incremental reparsing (incremental.c): the
// tree-sitter calls it needs beyond syntax.h.
#ifndef STRUCTLS_INCREMENTAL_H
#define STRUCTLS_INCREMENTAL_H

#include "syntax.h"

typedef struct {
	uint32_t start_byte, old_end_byte, new_end_byte;
	TSPoint start_point, old_end_point, new_end_point;
} TSInputEdit;

TSTree *ts_tree_copy(const TSTree *self);
void ts_tree_edit(TSTree *self, const TSInputEdit *edit);

TSTree *structls_reparse(const TSLanguage *lang, const TSTree *old, const TSInputEdit *edit,
	const char *text, uint32_t length, size_t *cancel, bool *refused, bool *reused);

#endif
