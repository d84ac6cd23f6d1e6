package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The SDK's stdio transport ends the session on the first line it cannot
// read as a JSON-RPC message (bad JSON, a bare value, an empty batch, a
// line over 16 MiB), losing the warm parse cache, the previews and the
// X-Ray jobs of an agent whose client sent one bad line; and it reads
// requests as fast as they come, so a client that floods it grows its
// memory until the process dies. stdioGuard stands between the client and
// the transport: it passes on the lines the transport can read, answers
// the others itself with a JSON-RPC error (as JSON-RPC asks, id null when
// the line has none), and stops reading while maxInFlight requests await
// their answers.

// maxInFlight is how many requests the server works on or holds at once;
// the client's next line is read when one is answered (or cancelled).
const maxInFlight = 64

// maxLine bounds one line, as the SDK's transport does.
const maxLine = 16 << 20

// stdioGuard is the input the transport reads (Read, Close) and the output
// it writes (its writer, through which the guard's own errors go too).
type stdioGuard struct {
	in      *bufio.Reader
	closer  io.Closer
	out     *guardedWriter
	pending []byte // the rest of the line being passed on

	mu       sync.Mutex
	answered *sync.Cond
	inFlight map[string]bool // the ids of the requests passed on and not answered
	closed   bool
}

func newStdioGuard(in io.ReadCloser, out io.Writer) *stdioGuard {
	g := &stdioGuard{in: bufio.NewReaderSize(in, 64<<10), closer: in, inFlight: map[string]bool{}}
	g.answered = sync.NewCond(&g.mu)
	g.out = &guardedWriter{w: out, guard: g}
	return g
}

// Read hands the transport the next line it can read.
func (g *stdioGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, err := g.nextLine()
		if err != nil {
			return 0, err
		}
		g.pending = line
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// Close closes the client's input and lets a Read waiting for room go.
func (g *stdioGuard) Close() error {
	g.mu.Lock()
	g.closed = true
	g.answered.Broadcast()
	g.mu.Unlock()
	return g.closer.Close()
}

// nextLine reads lines until one the transport can read, answering the
// others, and returns it with its line end; it waits first while
// maxInFlight requests are unanswered.
func (g *stdioGuard) nextLine() ([]byte, error) {
	g.mu.Lock()
	for len(g.inFlight) >= maxInFlight && !g.closed {
		g.answered.Wait()
	}
	g.mu.Unlock()
	for {
		line, tooLong, err := g.readLine()
		if err != nil && len(line) == 0 && !tooLong {
			return nil, err
		}
		if tooLong { // line holds its start
			g.reject(leadingID(line), jsonrpc.CodeInvalidRequest, fmt.Sprintf("the message is longer than %d MiB: send smaller ones", maxLine>>20))
		} else if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			if g.accept(trimmed) {
				return append(trimmed, '\n'), nil
			}
		}
		if err != nil {
			return nil, err
		}
	}
}

// readLine reads one line, without its end; tooLong when it was longer
// than maxLine (only its first 4 KiB are kept, where its id may be read).
func (g *stdioGuard) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := g.in.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine {
				tooLong, line = true, line[:min(len(line), 4<<10)]
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// accept reports whether the transport can read line (a single JSON-RPC
// message: batches are not part of MCP since 2025-06-18), answering it
// with an error when not, and counts the requests passed on.
func (g *stdioGuard) accept(line []byte) bool {
	if line[0] == '[' {
		g.reject(nil, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported: send one message a line")
		return false
	}
	if !json.Valid(line) { // bad JSON, or two messages on one line
		g.reject(nil, jsonrpc.CodeParseError, "the line is not one JSON value: send one JSON-RPC message a line")
		return false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		g.reject(idOf(line), jsonrpc.CodeInvalidRequest, fmt.Sprintf("cannot read the message: %v", err))
		return false
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.IsCall() {
			g.mu.Lock()
			g.inFlight[idKey(m.ID)] = true
			g.mu.Unlock()
		} else if m.Method == "notifications/cancelled" {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				g.answer(string(compact(p.RequestID)))
			}
		}
	}
	return true
}

// answer records that the request with the id key was answered or cancelled.
func (g *stdioGuard) answer(key string) {
	g.mu.Lock()
	if g.inFlight[key] {
		delete(g.inFlight, key)
		g.answered.Broadcast()
	}
	g.mu.Unlock()
}

// reject writes a JSON-RPC error response for a line not passed on; id
// is the line's id when it has one that can be read, else null.
func (g *stdioGuard) reject(id json.RawMessage, code int64, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	resp, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": message}})
	_, _ = g.out.write(append(resp, '\n'), false)
}

// idOf is the id of a line that is a JSON object with a string or number
// id, or nil.
func idOf(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(m.ID, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

// leadingID is the id of a message cut short, when its members before
// the cut hold one (a string or a number), or nil.
func leadingID(start []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(start))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if key == "id" {
			return idOf(append(append([]byte(`{"id":`), value...), '}'))
		}
	}
	return nil
}

// idKey is the key of a request id in inFlight: its JSON.
func idKey(id jsonrpc.ID) string {
	b, _ := json.Marshal(id.Raw())
	return string(b)
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// guardedWriter is the output, shared by the transport and the guard,
// one message a Write; it tells the guard of each response written.
type guardedWriter struct {
	mu    sync.Mutex
	w     io.Writer
	guard *stdioGuard
}

// Write writes one message of the transport's (a line).
func (w *guardedWriter) Write(p []byte) (int, error) { return w.write(p, true) }

// Close does not close the output: the process owns stdout.
func (w *guardedWriter) Close() error { return nil }

func (w *guardedWriter) write(p []byte, fromTransport bool) (int, error) {
	if fromTransport {
		if msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(p)); err == nil {
			if resp, ok := msg.(*jsonrpc.Response); ok {
				defer w.guard.answer(idKey(resp.ID))
			}
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	return n, err
}
