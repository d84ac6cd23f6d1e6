package lsp

import (
	"bytes"
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// tolerantStream keeps one bad message from ending the session. jsonrpc2
// v1.0.1 stops its read loop when a frame's body is not JSON; this wrapper
// answers such a frame with a ParseError response (id null, as JSON-RPC asks)
// and reads on. A broken frame header still ends the session: the byte
// stream cannot be resynchronised after it.
//
// It implements jsonrpc2's frame interface (ReadFrame/WriteFrame), which the
// connection uses when the stream offers it, and delegates everything else.
type tolerantStream struct {
	jsonrpc2.Stream
	frames frameStream
	log    *zap.Logger
}

// frameStream is the frame-level interface of jsonrpc2's header stream.
type frameStream interface {
	ReadFrame(ctx context.Context) ([]byte, int64, error)
	WriteFrame(ctx context.Context, data []byte) (int64, error)
}

func newTolerantStream(inner jsonrpc2.Stream, log *zap.Logger) jsonrpc2.Stream {
	frames, ok := inner.(frameStream)
	if !ok {
		return inner
	}
	return &tolerantStream{Stream: inner, frames: frames, log: log}
}

// ReadFrame returns the next frame whose body is a JSON object or array.
func (s *tolerantStream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	for {
		frame, n, err := s.frames.ReadFrame(ctx)
		if err != nil {
			return frame, n, err
		}
		code, msg := checkMessage(frame)
		if code == 0 {
			return frame, n, nil
		}
		s.log.Warn("rejected a malformed message", zap.Int("bytes", len(frame)), zap.String("reason", msg))
		reply := jsonrpc2.AppendResponse(nil, jsonrpc2.ID{}, nil, jsonrpc2.NewError(code, msg))
		if _, err := s.frames.WriteFrame(ctx, reply); err != nil {
			return nil, 0, err
		}
	}
}

// WriteFrame writes one already-encoded message.
func (s *tolerantStream) WriteFrame(ctx context.Context, data []byte) (int64, error) {
	return s.frames.WriteFrame(ctx, data)
}

// checkMessage returns 0 for a frame jsonrpc2 can take (a batch, a request
// or notification with a string method, or a response), otherwise the error
// code and message to answer it with.
func checkMessage(frame []byte) (jsonrpc2.Code, string) {
	trimmed := bytes.TrimSpace(frame)
	if !json.Valid(trimmed) {
		return jsonrpc2.ParseError, "the message is not valid JSON"
	}
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return 0, ""
	}
	var m struct {
		Method        *string
		Result, Error json.RawMessage
	}
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &m) != nil {
		return jsonrpc2.InvalidRequest, "the message is not a JSON-RPC request: it needs a string \"method\""
	}
	if m.Method == nil && m.Result == nil && m.Error == nil {
		return jsonrpc2.InvalidRequest, "the message has neither a \"method\" nor a \"result\" or \"error\""
	}
	return 0, ""
}
