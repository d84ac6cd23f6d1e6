package lsp

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// Partial results: a client that puts a partialResultToken in the params
// of workspace/executeCommand gets the results of a command that can
// stream them (structls.astGrep, structls.xray, structls.outline,
// structls.search) in their final order, as soon as they are known, in
// `$/progress` notifications {token, value} — each value a batch
// (astgrep.Batch and xray.Batch: {matches, text?}; outline.Batch: {files,
// text?}; grep.Batch: {matches}) — sent before the reply, which then holds
// everything else (the counts, notes and the text's tail) and no matches.
// Concatenating the batches' matches (and texts) with the reply's gives
// exactly the reply the same request gets without a token. LSP 3.17
// defines partialResultToken for requests that return lists; executeCommand
// carries it here in the same way. The CLI streams its output this way, so
// nothing it has printed stays in memory, in the server or in the CLI.

// partialKey is the context key of a request's partial-result sender.
type partialKey struct{}

// partialTokenOf returns the partialResultToken of a request's params, or
// nil when there is none. A token must be a string or an integer, as every
// progress token.
func partialTokenOf(params []byte) (json.RawMessage, error) {
	var p struct {
		Token json.RawMessage `json:"partialResultToken"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.Token) == 0 || string(p.Token) == "null" {
		return nil, nil
	}
	if !validProgressToken(p.Token) {
		return nil, invalidParams("partialResultToken must be a string or an integer (got %.40s)", p.Token)
	}
	return p.Token, nil
}

// validProgressToken reports whether raw is a JSON string or integer.
func validProgressToken(raw json.RawMessage) bool {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return true
	}
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}

// withPartialResults returns ctx carrying the sender of the request's
// partial results, when the request gave a token.
func (s *Server) withPartialResults(ctx context.Context, token json.RawMessage) context.Context {
	if token == nil {
		return ctx
	}
	// One buffer serves every batch of the request: Notify has written a
	// notification (copied it into the stream's frame) when it returns, and
	// a fresh 64 KB buffer per batch made 5-15% of an outline's page
	// faults, each a fresh page the kernel must zero and map.
	var mu sync.Mutex
	var buf []byte
	send := func(value any) error {
		mu.Lock()
		defer mu.Unlock()
		raw := append(append(buf[:0], `{"token":`...), token...)
		raw, err := appendResult(append(raw, `,"value":`...), value) // as the reply is encoded: the same bytes for the same matches
		if err != nil {
			return err
		}
		raw = append(raw, '}')
		if cap(raw) <= maxKeptFrame { // a rare huge batch's buffer goes with it
			buf = raw
		}
		return s.conn.Notify(ctx, "$/progress", jsonrpc2.RawMessage(raw))
	}
	return context.WithValue(ctx, partialKey{}, send)
}

// partialResultsOf returns the function that sends one partial result of
// the request ctx belongs to, or nil when the client asked for none.
func partialResultsOf(ctx context.Context) func(value any) error {
	send, _ := ctx.Value(partialKey{}).(func(any) error)
	return send
}
