package lsp

import (
	"context"
	"fmt"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/grep"
)

// CommandSearch is regex text search (its contract: docs/protocol.md).
const CommandSearch = "structls.search"

func (s *Server) runSearch(ctx context.Context, env engine.Env, arg []byte) (any, string, error) {
	var q grep.Query
	if err := decodeArgument(arg, &q); err != nil {
		return nil, "", err
	}
	var emit func(grep.Batch) error
	if send := partialResultsOf(ctx); send != nil {
		emit = func(b grep.Batch) error { return send(&b) }
	}
	res, err := grep.SearchStream(ctx, env, q, emit)
	if err != nil {
		return nil, "", err
	}
	return res, fmt.Sprintf("%d matches in %d files (%d searched)", res.MatchCount, res.FileCount, res.FilesSearched), nil
}
