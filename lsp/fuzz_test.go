package lsp

import (
	"testing"

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
