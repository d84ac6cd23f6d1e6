package lsp

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
)

// FuzzServerMessages sends an arbitrary message body to an initialised
// server, then a request: whatever the body, the server must still answer.
func FuzzServerMessages(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":5,"method":`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1.5}}`,
		`{"jsonrpc":"2.0","method":"window/workDoneProgress/cancel","params":{"token":{}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"x:y","version":1},"contentChanges":[{"range":{"start":{"line":-1,"character":0},"end":{"line":0,"character":0}},"text":""}]}}`,
		`{"jsonrpc":"2.0","id":"q","method":"workspace/executeCommand","params":{"command":"structls.search","arguments":[{"pattern":"(","paths":["\u0000"]}]}}`,
		`[{"jsonrpc":"2.0","method":"initialized"},1]`,
		"\xff\xfe",
		// Envelopes jsonrpc2 v1.0.1 cannot read, each of which once ended the session:
		`{"method":"x"}`, `{"jsonrpc":"1.0","method":"x"}`, `{"jsonrpc":"2.0","id":1.5,"method":"x"}`,
		`{"jsonrpc":"2.0","id":7,"result":1,"error":{}}`, `{"jsonrpc":"2.0","id":"zz","error":5}`, `{"method":""}`, "",
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`, // a second initialized
	} {
		f.Add(seed)
	}
	dir := testutil.WriteTree(f, "-- a.txt --\nneedle\n")
	f.Fuzz(func(t *testing.T, body string) {
		c := newRawClient(t)
		c.initialize(dir)
		c.sendRaw(body)
		c.send(99, "workspace/executeCommand", map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"pattern": "needle"}}})
		m := c.reply("99")
		if m.Error != nil && m.Error.Code != -32600 { // -32600: the body was a shutdown request
			t.Fatalf("after %q the server answers %+v", body, m.Error)
		}
	})
}

// FuzzDecodeCancelID checks the $/cancelRequest id decoder on any input.
func FuzzDecodeCancelID(f *testing.F) {
	for _, seed := range []string{`{"id":1}`, `{"id":"a"}`, `{"id":1e300}`, `{"id":-0.5}`, `{}`, `null`, `{"id":[1]}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, params string) {
		id, err := decodeCancelID([]byte(params))
		if err == nil && !id.IsValid() {
			t.Fatalf("%s decoded to an invalid id without an error", params)
		}
	})
}

// FuzzFraming writes arbitrary bytes (framing junk) ahead of a well-formed
// request. Whatever the junk, the server must not crash or hang; and junk
// that holds no "Content-Length" cannot hold a frame that swallows the
// request, so the request must be answered.
func FuzzFraming(f *testing.F) {
	for _, seed := range []string{
		"", "garbage", "Content-Length: 5", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
		"X-Junk: abc", "{\"a\":1}", "\r\n", "Content-Length: nope\r\n\r\n", "content-length: 3\r\n\r\n[1]",
		strings.Repeat("x", 9000), "Content-Type: x\r\n",
	} {
		f.Add(seed)
	}
	dir := testutil.WriteTree(f, "-- a.txt --\nneedle\n")
	f.Fuzz(func(t *testing.T, junk string) {
		if len(junk) > 1<<16 {
			return
		}
		c := newRawClient(t)
		c.initialize(dir)
		request := `{"jsonrpc":"2.0","id":99,"method":"shutdown"}`
		if _, err := fmt.Fprintf(c.w, "%s\r\n\r\nContent-Length: %d\r\n\r\n%s", junk, len(request), request); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ToLower(junk), "content-length") {
			_ = c.w.Close() // the junk may declare a body that swallows the request: end the input
			select {
			case <-c.code:
			case <-time.After(60 * time.Second):
				t.Fatalf("after %q the session did not end at the end of its input", junk)
			}
			return
		}
		if m := c.reply("99"); m.Error != nil {
			t.Fatalf("after %q the server answers %+v", junk, m.Error)
		}
	})
}
