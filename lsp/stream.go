package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// headerStream is the LSP base protocol (Content-Length header, blank line,
// JSON body), written so that no input can end the session or leave it
// broken: jsonrpc2 v1.0.1's own header stream stops the connection on a
// body that is not JSON or on a malformed header. Here a bad message gets a
// ParseError (or InvalidRequest) reply with id null, as JSON-RPC asks, and
// reading resynchronises on the next "Content-Length:" header (header.go
// says how), so one bad frame costs that frame only.
//
// jsonrpc2's connection reads through ReadFrame/WriteFrame when the stream
// offers them, and falls back to Read/Write otherwise.
type headerStream struct {
	raw     io.Reader     // the client's stream, read through in
	pending *bytes.Reader // input pushed back by a resync, read before raw
	in      *bufio.Reader // buffered input; replaced when bytes are pushed back
	out     io.Writer
	closer  io.Closer
	log     *zap.Logger

	writeMu sync.Mutex // one frame per write, writers serialised
	frame   []byte     // Write's buffer, under writeMu
}

// maxFrameSize bounds one message body; larger bodies are skipped.
const maxFrameSize = 1 << 30

// readBufferSize is the input buffer; header lines are capped well below it.
const readBufferSize = 64 << 10

func newHeaderStream(rwc io.ReadWriteCloser, log *zap.Logger) *headerStream {
	return &headerStream{raw: rwc, in: bufio.NewReaderSize(rwc, readBufferSize), out: rwc, closer: rwc, log: log}
}

// ReadFrame returns the body of the next well-formed message.
func (s *headerStream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		length, headerBytes, problem, err := s.readHeader()
		if err != nil {
			return nil, 0, err
		}
		if problem != "" { // readHeader resynchronised: reply and go on
			if err := s.reject(ctx, jsonrpc2.ParseError, "malformed message header: "+problem); err != nil {
				return nil, 0, err
			}
			continue
		}
		if length > maxFrameSize {
			if _, err := s.in.Discard(length); err != nil {
				return nil, 0, err
			}
			if err := s.reject(ctx, jsonrpc2.InvalidRequest, fmt.Sprintf("message of %d bytes is larger than the %d bytes allowed", length, maxFrameSize)); err != nil {
				return nil, 0, err
			}
			continue
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.in, body); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, 0, err
		}
		if code, msg := checkMessage(body); code != 0 {
			if code == jsonrpc2.ParseError {
				// A wrong Content-Length: the body may have swallowed the
				// start of the next frame. Read on from that frame.
				s.resyncInside(body)
			}
			if err := s.reject(ctx, code, msg); err != nil {
				return nil, 0, err
			}
			continue
		}
		return body, int64(headerBytes + length), nil
	}
}

// reject answers an unusable message with an error response, id null.
func (s *headerStream) reject(ctx context.Context, code jsonrpc2.Code, msg string) error {
	s.log.Warn("rejected a malformed message", zap.String("reason", msg))
	_, err := s.WriteFrame(ctx, jsonrpc2.AppendResponse(nil, jsonrpc2.ID{}, nil, jsonrpc2.NewError(code, msg)))
	return err
}

// WriteFrame writes one encoded message with its header, in a single write.
// Header and body go out as two writes under one lock, so a large body is
// not copied.
func (s *headerStream) WriteFrame(_ context.Context, data []byte) (int64, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return s.writeFrameLocked(data)
}

// writeFrameLocked writes data with its header. Precondition: writeMu is held.
func (s *headerStream) writeFrameLocked(data []byte) (int64, error) {
	header := strconv.AppendInt([]byte("Content-Length: "), int64(len(data)), 10)
	header = append(header, "\r\n\r\n"...)
	n, err := s.out.Write(header)
	if err != nil {
		return int64(n), err
	}
	m, err := s.out.Write(data)
	return int64(n + m), err
}

// Read decodes the next message.
func (s *headerStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	body, n, err := s.ReadFrame(ctx)
	if err != nil {
		return nil, 0, err
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	return msg, n, err
}

// Write encodes and writes one message. The envelope is appended into a
// buffer the stream keeps (under writeMu) and written from there: a
// result of tens of MB is copied once into its frame, not a second time
// out of a pool (jsonrpc2.EncodeMessage).
func (s *headerStream) Write(_ context.Context, msg jsonrpc2.Message) (int64, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.frame = jsonrpc2.AppendMessage(s.frame[:0], msg)
	n, err := s.writeFrameLocked(s.frame)
	if cap(s.frame) > maxKeptFrame {
		s.frame = nil // a large reply's buffer goes with it
	}
	return n, err
}

// maxKeptFrame is the largest write buffer a stream keeps between messages.
const maxKeptFrame = 1 << 20

// Close closes the underlying connection.
func (s *headerStream) Close() error { return s.closer.Close() }

// checkMessage returns 0 for a body jsonrpc2 can take — a JSON-RPC 2.0
// request, notification or response, or a batch of them — otherwise the
// error code and message to answer it with. jsonrpc2 v1.0.1 ends the
// connection on any envelope it cannot read, so every rule it enforces is
// checked here first.
func checkMessage(body []byte) (jsonrpc2.Code, string) {
	trimmed := bytes.TrimSpace(body)
	if !json.Valid(trimmed) {
		return jsonrpc2.ParseError, "the message is not valid JSON"
	}
	if trimmed[0] != '[' {
		return checkEnvelope(trimmed)
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(trimmed, &batch); err != nil {
		return jsonrpc2.InvalidRequest, "the batch is not an array of messages"
	}
	for i, m := range batch {
		if code, msg := checkEnvelope(m); code != 0 {
			return code, fmt.Sprintf("batch member %d: %s", i, msg)
		}
	}
	return 0, ""
}

// checkEnvelope checks one JSON-RPC 2.0 message object.
func checkEnvelope(raw []byte) (jsonrpc2.Code, string) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return jsonrpc2.InvalidRequest, "a JSON-RPC message must be a JSON object"
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		return jsonrpc2.InvalidRequest, `a JSON-RPC message needs "jsonrpc": "2.0"`
	}
	if id, ok := m["id"]; ok && !validID(id) {
		return jsonrpc2.InvalidRequest, "the id must be a string, an integer or null"
	}
	if method, ok := m["method"]; ok {
		var name string
		if json.Unmarshal(method, &name) != nil {
			return jsonrpc2.InvalidRequest, `"method" must be a string`
		}
		return 0, ""
	}
	_, hasResult := m["result"]
	errObj, hasError := m["error"]
	switch {
	case hasResult == hasError:
		return jsonrpc2.InvalidRequest, `a message needs a "method", or exactly one of "result" and "error"`
	case hasError:
		var e struct {
			Code    *int64
			Message *string
		}
		if json.Unmarshal(errObj, &e) != nil || e.Code == nil || e.Message == nil {
			return jsonrpc2.InvalidRequest, `"error" must be an object with an integer "code" and a string "message"`
		}
	}
	return 0, ""
}

// validID reports whether a JSON value is a string, an integer or null.
func validID(raw json.RawMessage) bool {
	var s string
	if string(raw) == "null" || json.Unmarshal(raw, &s) == nil {
		return true
	}
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}
