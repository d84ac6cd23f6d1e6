package lsp

import (
	"context"
	"fmt"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/outline"
)

// CommandOutline lists what files declare: items, their members, and the
// text views of ast-grep's outline (outline.Query). With a
// partialResultToken the files stream as batches {files, text?}
// (partial.go).
const CommandOutline = "structls.outline"

func (s *Server) runOutline(ctx context.Context, env engine.Env, arg []byte) (any, string, error) {
	var q outline.Query
	if err := decodeArgument(arg, &q); err != nil {
		return nil, "", err
	}
	streamed := 0
	var emit func(outline.Batch) error
	if send := partialResultsOf(ctx); send != nil {
		emit = func(b outline.Batch) error { streamed += len(b.Files); return send(&b) }
	}
	res, err := outline.SearchStream(ctx, env, q, emit)
	if err != nil {
		return nil, "", err
	}
	return res, fmt.Sprintf("outlined %d of %d files", streamed+len(res.Files), res.FilesSearched), nil
}
