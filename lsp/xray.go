package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/xray"
)

// CommandXRay is the two-phase search: a regex driver, then a Starlark
// evaluator over each candidate file's syntax tree (its contract: docs/protocol.md).
const CommandXRay = "structls.xray"

// XRayPrintPrefix starts the window/logMessage that carries one print of an
// evaluator: "structls.xray print: PATH: TEXT". Print output goes to the
// client's log (an editor's output panel; the CLI writes it to stderr),
// never into stdout, which in serve mode is the JSON-RPC stream; xray
// bounds how much of it a run passes on.
const XRayPrintPrefix = "structls.xray print: "

func (s *Server) runXRay(ctx context.Context, env engine.Env, arg []byte) (any, string, error) {
	var q xray.Query
	if err := decodeArgument(arg, &q); err != nil {
		return nil, "", err
	}
	streamed := 0
	var emit func(xray.Batch) error
	if send := partialResultsOf(ctx); send != nil {
		emit = func(b xray.Batch) error { streamed += len(b.Matches); return send(&b) }
	}
	// Sent as it is printed, from the evaluating goroutine, so every print
	// reaches the client before the reply does.
	ctx = xray.WithPrint(ctx, func(path, text string) {
		msg := XRayPrintPrefix + path + ": " + text
		s.log.Debug("xray print", zap.String("path", path), zap.String("text", text))
		_ = s.client.LogMessage(ctx, &protocol.LogMessageParams{Type: protocol.MessageTypeLog, Message: msg})
	})
	res, err := xray.SearchStream(ctx, env, q, emit)
	if err != nil {
		return nil, "", err
	}
	return res, fmt.Sprintf("%d matches, %d evaluation errors in %d of %d candidate files", streamed+len(res.Matches), len(res.EvaluationErrors), res.FilesEvaluated, res.Candidates), nil
}
