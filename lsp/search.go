package lsp

import (
	"context"
	"fmt"

	"github.com/structls/structls/grep"
	"github.com/structls/structls/workspace"
)

// CommandSearch is regex text search (its contract: docs/protocol.md).
const CommandSearch = "structls.search"

func (s *Server) runSearch(ctx context.Context, snap *workspace.Snapshot, enc workspace.Encoding, arg []byte, progress func(done, total int)) (any, string, error) {
	var q grep.Query
	if err := decodeArgument(arg, &q); err != nil {
		return nil, "", err
	}
	res, err := grep.Search(ctx, snap, q, enc, progress)
	if err != nil {
		return nil, "", err
	}
	return res, fmt.Sprintf("%d matches in %d files (%d searched)", res.MatchCount, res.FileCount, res.FilesSearched), nil
}
