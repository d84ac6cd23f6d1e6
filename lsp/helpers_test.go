package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// newEditor starts a server in-process with an editor initialised on dir.
// The session is shut down when the test ends.
func newEditor(t *testing.T, dir string, opts client.EditorOptions) *client.Editor {
	t.Helper()
	ctx := context.Background()
	ed, wait := StartInProcess(ctx, Options{Version: "test"}, opts)
	if _, err := ed.Initialize(ctx, dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = ed.Shutdown(ctx)
		if code := wait(); code != 0 {
			t.Errorf("server exit code %d after shutdown; want 0", code)
		}
		_ = ed.Close()
	})
	return ed
}

// searchResult runs structls.search and decodes the result.
func searchResult(t *testing.T, ed *client.Editor, q map[string]any) (*searchReply, error) {
	t.Helper()
	raw, err := ed.ExecuteCommand(context.Background(), CommandSearch, q)
	if err != nil {
		return nil, err
	}
	var r searchReply
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return &r, nil
}

// searchReply is the part of a structls.search result the tests read.
type searchReply struct {
	Matches []struct {
		Path, URI, LineText string
		LineNumber          int
		Submatches          []struct {
			Range     workspace.Range
			ByteRange workspace.ByteRange
		}
	}
	MatchCount int
	Warnings   []string
}

func (r *searchReply) lines() []string {
	var out []string
	for _, m := range r.Matches {
		out = append(out, fmt.Sprintf("%s:%d:%s", m.Path, m.LineNumber, m.LineText))
	}
	return out
}

// bigTree writes a corpus that takes the regex a while to scan: files of
// lines without the literal a slow pattern needs, so every byte is examined.
func bigTree(t *testing.T, files, linesPerFile int) string {
	t.Helper()
	dir := testutil.WriteTree(t, "")
	var b strings.Builder
	for i := range linesPerFile {
		fmt.Fprintf(&b, "lorem ipsum %05d dolor sit amet consectetur adipiscing %d elit\n", i, i*7)
	}
	for i := range files {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// slowQuery matches nothing in bigTree and has no literal to prefilter on.
var slowQuery = map[string]any{"pattern": `[a-z]{5} [0-9]{5}[A-Z]`, "limit": 0}

// rawClient speaks JSON-RPC frames by hand, to send exactly what a test
// needs (numeric or string ids, malformed frames) and read every reply.
type rawClient struct {
	t    *testing.T
	w    *os.File // the server's stdin
	in   *os.File // the server's stdout
	r    *bufio.Reader
	code chan int
	// pending holds the rest of a batch reply, read one message at a time.
	pending []message
}

// pipeConn joins two OS pipe ends into the server's stream. OS pipes buffer
// like a real stdio transport does, so a test may send several messages
// before reading replies.
type pipeConn struct {
	io.Reader
	io.Writer
	closers []io.Closer
}

func (p pipeConn) Close() error {
	for _, c := range p.closers {
		_ = c.Close()
	}
	return nil
}

func newRawClient(t *testing.T) *rawClient {
	t.Helper()
	return startRawClient(t, true)
}

// newStdioRawClient is newRawClient over a stream whose Close leaves the
// input open, as the process's stdin is: closing the session cannot unblock
// a read from it.
func newStdioRawClient(t *testing.T) *rawClient {
	t.Helper()
	return startRawClient(t, false)
}

func startRawClient(t *testing.T, closableInput bool) *rawClient {
	t.Helper()
	serverIn, clientOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	clientIn, serverOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &rawClient{t: t, w: clientOut, in: clientIn, r: bufio.NewReader(clientIn), code: make(chan int, 1)}
	stream := pipeConn{Reader: serverIn, Writer: serverOut}
	if closableInput {
		stream.closers = []io.Closer{serverIn, serverOut}
	}
	t.Cleanup(func() { _ = serverIn.Close(); _ = serverOut.Close() })
	go func() { c.code <- Serve(context.Background(), stream, Options{}) }()
	t.Cleanup(func() { _ = clientOut.Close(); _ = clientIn.Close() })
	return c
}

// sendRaw writes one frame with the given body.
func (c *rawClient) sendRaw(body string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

// send writes a message; id nil makes it a notification.
func (c *rawClient) send(id any, method string, params any) {
	c.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if id != nil {
		msg["id"] = id
	}
	body, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(string(body))
}

// message is a decoded incoming frame.
type message struct {
	ID     json.RawMessage
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *struct {
		Code    int
		Message string
	}
}

// recv reads the next frame, failing the test after a generous deadline
// (a hang is a bug; this only keeps the test from blocking forever).
func (c *rawClient) recv() message {
	c.t.Helper()
	if len(c.pending) > 0 {
		m := c.pending[0]
		c.pending = c.pending[1:]
		return m
	}
	_ = c.in.SetReadDeadline(time.Now().Add(60 * time.Second))
	header, err := textproto.NewReader(c.r).ReadMIMEHeader()
	if err != nil {
		c.t.Fatalf("reading a frame header: %v", err)
	}
	n, err := strconv.Atoi(header.Get("Content-Length"))
	if err != nil {
		c.t.Fatalf("bad Content-Length: %v", err)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		c.t.Fatal(err)
	}
	if len(body) > 0 && body[0] == '[' { // a batch reply
		if err := json.Unmarshal(body, &c.pending); err != nil || len(c.pending) == 0 {
			c.t.Fatalf("batch frame %s: %v", body, err)
		}
		m := c.pending[0]
		c.pending = c.pending[1:]
		return m
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		c.t.Fatalf("frame %s: %v", body, err)
	}
	return m
}

// awaitProgress reads frames until a $/progress of the given kind.
func (c *rawClient) awaitProgress(kind string) {
	c.t.Helper()
	c.readUntil(func(m message) bool {
		return m.Method == "$/progress" && strings.Contains(string(m.Params), `"kind":"`+kind+`"`)
	})
}

// reply reads frames until the response to id (a JSON literal such as `2`
// or `"a"`).
func (c *rawClient) reply(id string) message {
	c.t.Helper()
	return c.readUntil(func(m message) bool { return m.Method == "" && string(m.ID) == id })
}

// readUntil reads frames until one satisfies done, answering the server's
// own requests with null on the way.
func (c *rawClient) readUntil(done func(message) bool) message {
	c.t.Helper()
	for {
		m := c.recv()
		if m.Method != "" && m.ID != nil {
			c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID))
			continue
		}
		if done(m) {
			return m
		}
	}
}

// initialize performs the handshake on dir, announcing work-done progress support.
func (c *rawClient) initialize(dir string) {
	c.t.Helper()
	c.send(1, "initialize", map[string]any{"processId": nil, "capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}},
		"workspaceFolders": []map[string]string{{"uri": workspace.PathToURI(dir), "name": "w"}}})
	if m := c.reply("1"); m.Error != nil {
		c.t.Fatalf("initialize: %v", m.Error.Message)
	}
	c.send(nil, "initialized", map[string]any{})
}
