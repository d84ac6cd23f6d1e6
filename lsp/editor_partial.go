package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// partialReceiver takes the partial results of one streamed request.
type partialReceiver struct {
	onPartial func(value json.RawMessage) error
	err       error // the first error onPartial returned; later partials are dropped
}

// ExecuteCommandStreaming runs a command with a partialResultToken (see
// partial.go): onPartial gets each partial result's value, in order, as it
// arrives (on the connection's read loop, so a slow onPartial slows the
// server's sending rather than piling results up), and the final result is
// returned. When onPartial fails, the later partials are dropped and its
// first error is returned.
func (e *Editor) ExecuteCommandStreaming(ctx context.Context, command string, arg any,
	onPartial func(value json.RawMessage) error) (json.RawMessage, error) {
	e.mu.Lock()
	e.nextPartial++
	token := fmt.Sprintf("partial-%d", e.nextPartial)
	receiver := &partialReceiver{onPartial: onPartial}
	if e.partials == nil {
		e.partials = map[string]*partialReceiver{}
	}
	e.partials[token] = receiver
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.partials, token)
		e.mu.Unlock()
	}()
	var result json.RawMessage
	err := e.Call(ctx, "workspace/executeCommand",
		map[string]any{"command": command, "arguments": []any{arg}, "partialResultToken": token}, &result)
	if err == nil {
		err = receiver.err // set on the read loop, which handled every partial before the reply
	}
	return result, err
}

// receivePartial hands a $/progress notification to the request whose
// partialResultToken it carries, and reports whether it did.
func (e *Editor) receivePartial(params json.RawMessage) bool {
	var p struct {
		Token string         `json:"token"`
		Value jsontext.Value `json:"value"`
	}
	if jsonv2.Unmarshal(params, &p) != nil {
		return false
	}
	e.mu.Lock()
	receiver := e.partials[p.Token]
	e.mu.Unlock()
	if receiver == nil {
		return false
	}
	if receiver.err == nil {
		receiver.err = receiver.onPartial(json.RawMessage(p.Value))
	}
	return true
}
