package lsp

import (
	"context"
	"fmt"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/engine"
)

// CommandAstGrep is structural search with ast-grep semantics (its contract: docs/protocol.md).
const CommandAstGrep = "structls.astGrep"

func (s *Server) runAstGrep(ctx context.Context, env engine.Env, arg []byte) (any, string, error) {
	var q astgrep.Query
	if err := decodeArgument(arg, &q); err != nil {
		return nil, "", err
	}
	if q.DebugQuery != "" {
		res, err := astgrep.Debug(ctx, env, q)
		if err != nil {
			return nil, "", err
		}
		return res, "debug view " + string(res.DebugQuery), nil
	}
	var emit func(astgrep.Batch) error
	if send := partialResultsOf(ctx); send != nil {
		emit = func(b astgrep.Batch) error { return send(&b) }
	}
	res, err := astgrep.SearchStream(ctx, env, q, emit)
	if err != nil {
		return nil, "", err
	}
	return res, fmt.Sprintf("%d matches in %d files (%d searched)", res.MatchCount, res.FileCount, res.FilesSearched), nil
}
