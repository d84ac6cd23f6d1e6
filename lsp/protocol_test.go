package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
)

func TestLifecycleGate(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nx\n")
	c := newRawClient(t)
	c.send(1, "workspace/executeCommand", map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"pattern": "x"}}})
	if m := c.reply("1"); m.Error == nil || m.Error.Code != -32002 {
		t.Fatalf("request before initialize: %+v; want ServerNotInitialized", m.Error)
	}
	c.send(nil, "textDocument/didOpen", map[string]any{}) // dropped, not fatal
	c.initialize(dir)
	c.send(2, "shutdown", nil)
	if m := c.reply("2"); m.Error != nil {
		t.Fatal(m.Error.Message)
	}
	c.send(3, "workspace/executeCommand", map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"pattern": "x"}}})
	if m := c.reply("3"); m.Error == nil || m.Error.Code != -32600 {
		t.Fatalf("request after shutdown: %+v; want InvalidRequest", m.Error)
	}
	c.send(nil, "exit", nil)
	if code := <-c.code; code != 0 {
		t.Errorf("exit code after shutdown %d; want 0", code)
	}
}

// TestExitEndsSessionWithInputOpen checks that exit ends the session
// promptly even though the client keeps the server's input open (Neovim's
// stop_client, eglot's shutdown): 0 after shutdown, 1 otherwise.
func TestExitEndsSessionWithInputOpen(t *testing.T) {
	dir := testutil.WriteTree(t, "")
	for _, tt := range []struct {
		name     string
		shutdown bool
		want     int
	}{{"after shutdown", true, 0}, {"without shutdown", false, 1}} {
		t.Run(tt.name, func(t *testing.T) {
			c := newStdioRawClient(t)
			c.initialize(dir)
			if tt.shutdown {
				c.send(2, "shutdown", nil)
				c.reply("2")
			}
			c.send(nil, "exit", nil)
			select {
			case code := <-c.code:
				if code != tt.want {
					t.Errorf("exit code %d; want %d", code, tt.want)
				}
			case <-time.After(10 * time.Second): // generous: the contract is one second
				t.Fatal("the session did not end after exit while the input stayed open")
			}
		})
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := newRawClient(t)
	c.initialize(testutil.WriteTree(t, ""))
	c.send(nil, "exit", nil)
	if code := <-c.code; code != 1 {
		t.Errorf("exit code without shutdown %d; want 1", code)
	}
}

func TestMalformedInputDoesNotStopTheServer(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nneedle\n")
	c := newRawClient(t)
	c.initialize(dir)
	c.sendRaw("")                                          // empty body
	fmt.Fprintf(c.w, "Content-Length: nope\r\n\r\n{}")     // bad header
	fmt.Fprintf(c.w, "garbage between frames\r\n")         // not a header at all
	c.sendRaw(`{"jsonrpc":"2.0","id":5,"method":`)         // truncated JSON
	c.sendRaw(`not json at all`)                           // garbage
	c.sendRaw(`{"jsonrpc":"2.0","id":6}`)                  // no method
	c.sendRaw(`[]`)                                        // empty batch
	c.send(nil, "textDocument/didChange", "not an object") // bad notification params
	c.send(nil, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere", "version": 2}, "contentChanges": []any{}})
	c.send(nil, "$/someUnknownNotification", map[string]any{})
	c.send(7, "textDocument/unknownRequest", map[string]any{})
	if m := c.reply("7"); m.Error == nil || m.Error.Code != -32601 {
		t.Fatalf("unknown method: %+v; want MethodNotFound", m.Error)
	}
	badParams := []struct {
		params any
		want   string
	}{
		{map[string]any{"command": "structls.nope", "arguments": []any{map[string]any{}}}, "unknown command"},
		{map[string]any{"command": CommandSearch}, "exactly one argument"},
		{map[string]any{"command": CommandSearch, "arguments": []any{"a string"}}, "JSON object"},
		{map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"patern": "x"}}}, `unknown field "patern" (did you mean pattern?); known fields: pattern`},
		{map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"pattern": 5}}}, "pattern"},
		{map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"pattern": "("}}}, ""},
		{map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"pattern": `a(?=b)`}}}, "invalid regex"},
		{map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"pattern": "x", "skip": -3}}}, "skip must be"},
		{map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"pattern": "x", "limit": 1e15}}}, "limit must be"},
		{map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"pattern": "x", "paths": []string{""}}}}, "non-empty"},
		{"not an object", "executeCommand"},
	}
	for i, tt := range badParams {
		id := 100 + i
		c.send(id, "workspace/executeCommand", tt.params)
		m := c.reply(jsonID(id))
		if tt.want == "" { // "(" is retried with the parenthesis escaped: a valid search
			if m.Error != nil {
				t.Errorf("params %v: %v", tt.params, m.Error.Message)
			}
			continue
		}
		if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, tt.want) {
			t.Errorf("params %v: error %+v; want InvalidParams containing %q", tt.params, m.Error, tt.want)
		}
	}
	c.send(8, "workspace/executeCommand", map[string]any{"command": CommandSearch, "arguments": []any{map[string]any{"pattern": "needle"}}})
	m := c.reply("8")
	if m.Error != nil || !strings.Contains(string(m.Result), `"matchCount":1`) {
		t.Fatalf("the server stopped answering properly: %+v %s", m.Error, m.Result)
	}
}

func jsonID(id int) string { b, _ := json.Marshal(id); return string(b) }
