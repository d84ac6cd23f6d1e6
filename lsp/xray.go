package lsp

import (
	"context"
	"fmt"

	"github.com/structls/structls/workspace"
	"github.com/structls/structls/xray"
)

// CommandXRay is the two-phase search: a regex driver, then a Starlark
// evaluator over each candidate file's syntax tree (DESIGN.md §6).
const CommandXRay = "structls.xray"

func (s *Server) runXRay(ctx context.Context, snap *workspace.Snapshot, enc workspace.Encoding, arg []byte, progress func(done, total int)) (any, string, error) {
	var q xray.Query
	if err := decodeArgument(arg, &q); err != nil {
		return nil, "", err
	}
	streamed := 0
	var emit func(xray.Batch) error
	if send := partialResultsOf(ctx); send != nil {
		emit = func(b xray.Batch) error { streamed += len(b.Matches); return send(&b) }
	}
	res, err := xray.SearchStream(ctx, snap, q, enc, progress, s.parseCache, emit)
	if err != nil {
		return nil, "", err
	}
	return res, fmt.Sprintf("%d matches, %d evaluation errors in %d of %d candidate files", streamed+len(res.Matches), len(res.EvaluationErrors), res.FilesEvaluated, res.Candidates), nil
}
