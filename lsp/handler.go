package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// The message chain, in the order a message meets it:
//
//  1. Preempt (on the read loop, before anything else): $/cancelRequest with
//     a numeric or string id, and window/workDoneProgress/cancel.
//  2. handle: every call gets its own work context, derived from the
//     server's (never from jsonrpc2's pooled request context, which must not
//     outlive the handler) and registered under its id for $/cancelRequest; the initialize gate (ServerNotInitialized before initialize,
//     InvalidRequest after shutdown); then notifications are applied inline,
//     on the read loop, so they take effect strictly in arrival order; then a
//     request captures its snapshot inline, releases the read loop
//     (jsonrpc2.Async) and runs concurrently, bounded by s.requests.
//
// Invariant: nothing on the read loop waits for the client (a Call made there
// would deadlock, since its reply could not be read).

// RequestCancelled is the LSP error code of a request stopped by the client.
const RequestCancelled jsonrpc2.Code = -32800

// Preempt handles the cancellation notifications ahead of everything else.
func (s *Server) Preempt(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case "$/cancelRequest":
		id, err := decodeCancelID(req.Params())
		if err != nil {
			s.log.Warn("ignoring $/cancelRequest", zap.Error(err))
		} else {
			s.inflight.cancel(id)
		}
		return true, nil
	case "window/workDoneProgress/cancel":
		var p struct{ Token json.RawMessage }
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			s.progress.cancel(tokenKey(p.Token))
		}
		return true, nil
	}
	return nil, jsonrpc2.ErrNotHandled
}

// decodeCancelID reads the id of a $/cancelRequest: a JSON number (as VS Code
// sends) or a string.
func decodeCancelID(params []byte) (jsonrpc2.ID, error) {
	var p struct{ ID json.RawMessage }
	if err := json.Unmarshal(params, &p); err != nil || len(p.ID) == 0 {
		return jsonrpc2.ID{}, fmt.Errorf("params %s have no id", params)
	}
	var str string
	if err := json.Unmarshal(p.ID, &str); err == nil {
		return jsonrpc2.NewStringID(str), nil
	}
	var num float64
	if err := json.Unmarshal(p.ID, &num); err != nil || num != math.Trunc(num) {
		return jsonrpc2.ID{}, fmt.Errorf("id %s is neither a string nor an integer", p.ID)
	}
	return jsonrpc2.NewNumberID(int64(num)), nil
}

// handle is the jsonrpc2 handler; see the chain above.
func (s *Server) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	method := req.Method()
	if method == "exit" {
		s.exit()
		return nil, nil
	}
	switch st := s.currentState(); {
	case st == stateNew && method != "initialize":
		if req.IsCall() {
			return nil, jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "%s before initialize: send initialize first", method)
		}
		return nil, nil
	case st == stateInitialized && method == "initialize":
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "initialize was already called: it may be sent once per session")
	case st == stateShutdown:
		if req.IsCall() {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s after shutdown: the server only accepts exit now", method)
		}
		return nil, nil
	}
	if !req.IsCall() {
		s.notification(method, req.Params())
		return nil, nil
	}
	defer s.warmer.gate.Busy()() // background parsing waits
	work, done := s.inflight.start(s.ctx, req.ID())
	defer done()
	return s.call(ctx, work, method, req.Params())
}

// notification applies one notification, inline and in order.
func (s *Server) notification(method string, params []byte) {
	var err error
	switch method {
	case "initialized":
		s.initialized()
	case "textDocument/didOpen":
		err = s.didOpen(params)
	case "textDocument/didChange":
		err = s.didChange(params)
	case "textDocument/didClose":
		err = s.didClose(params)
	case "textDocument/didSave":
		err = s.didSave(params)
	case "workspace/didChangeConfiguration":
		err = s.didChangeConfiguration(params)
	case "workspace/didChangeWatchedFiles":
		err = s.didChangeWatchedFiles(params)
	case "workspace/didChangeWorkspaceFolders":
		err = s.didChangeWorkspaceFolders(params)
	default:
		if !strings.HasPrefix(method, "$/") {
			s.log.Debug("ignoring notification", zap.String("method", method))
		}
	}
	if err != nil {
		s.log.Debug("notification failed", zap.String("method", method), zap.Error(err))
		s.logMessage(protocol.MessageTypeError, fmt.Sprintf("structls: %s: %v", method, err))
	}
}

// call answers one request; request is jsonrpc2's context (used only to
// release the read loop), work the context the work runs under. Requests
// that do work run concurrently.
func (s *Server) call(request, work context.Context, method string, params []byte) (any, error) {
	switch method {
	case "initialize":
		return s.initialize(params)
	case "shutdown":
		// Refuse new requests at once, but answer the ones in flight first.
		s.setState(stateShutdown)
		jsonrpc2.Async(request)
		s.running.Wait()
		return nil, nil
	case "workspace/executeCommand":
		run, err := s.prepareCommand(params) // decode and snapshot, in order
		if err != nil {
			return nil, err
		}
		s.running.Add(1) // on the read loop, so shutdown (read later) waits for it
		defer s.running.Done()
		jsonrpc2.Async(request)
		select {
		case s.requests <- struct{}{}:
			defer func() { <-s.requests }()
		case <-work.Done():
			return nil, cancelledError()
		}
		return run(work)
	case "textDocument/diagnostic":
		return s.documentDiagnostic(request, work, params)
	case "textDocument/codeAction", "codeAction/resolve":
		return s.codeActionsAsync(request, work, method, params)
	case "textDocument/documentSymbol", "workspace/symbol":
		return s.symbolsAsync(request, work, method, params)
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method %s is not supported by structls", method)
}

func cancelledError() error {
	return jsonrpc2.NewError(RequestCancelled, "request cancelled")
}

// invalidParams wraps a user-fixable problem as the InvalidParams error.
func invalidParams(format string, args ...any) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, format, args...)
}

// decodeParams decodes the JSON params of a protocol method into v (a
// go.lsp.dev/protocol type). The error says what is wrong without naming
// the method: the caller names it once (notification does, for every
// notification; a request's error is the reply to that request).
func decodeParams(params []byte, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return errors.New("params are missing")
	}
	if err := protocol.Unmarshal(params, v); err != nil {
		return fmt.Errorf("params do not have the expected shape: %w", err)
	}
	return nil
}

// inflightCalls maps the ids of running calls to the cancel functions of
// their work contexts.
type inflightCalls struct {
	mu      sync.Mutex
	cancels map[jsonrpc2.ID]context.CancelFunc
}

// start registers a call and returns its work context and the func that
// deregisters it (and releases the context) when the call is answered.
func (c *inflightCalls) start(parent context.Context, id jsonrpc2.ID) (context.Context, func()) {
	work, cancel := context.WithCancel(parent)
	c.mu.Lock()
	if c.cancels == nil {
		c.cancels = map[jsonrpc2.ID]context.CancelFunc{}
	}
	c.cancels[id] = cancel
	c.mu.Unlock()
	return work, func() {
		c.mu.Lock()
		delete(c.cancels, id)
		c.mu.Unlock()
		cancel()
	}
}

// cancel stops the call with the id, if it is still running.
func (c *inflightCalls) cancel(id jsonrpc2.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cancel, ok := c.cancels[id]; ok {
		cancel()
	}
}
