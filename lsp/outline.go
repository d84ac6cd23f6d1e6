package lsp

import (
	"context"
	"fmt"

	"github.com/structls/structls/outline"
	"github.com/structls/structls/workspace"
)

// CommandOutline lists what files declare: items, their members, and the
// text views of ast-grep's outline (outline.Query).
const CommandOutline = "structls.outline"

func (s *Server) runOutline(ctx context.Context, snap *workspace.Snapshot, enc workspace.Encoding, arg []byte, progress func(done, total int)) (any, string, error) {
	var q outline.Query
	if err := decodeArgument(arg, &q); err != nil {
		return nil, "", err
	}
	res, err := outline.Search(ctx, snap, q, enc, progress, s.parseCache)
	if err != nil {
		return nil, "", err
	}
	return res, fmt.Sprintf("outlined %d of %d files", len(res.Files), res.FilesSearched), nil
}
