package lsp

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// TestFramingResyncs sends frames that once desynchronised the stream for
// good: each must cost one ParseError reply (id null), and the request
// after it must be answered normally.
func TestFramingResyncs(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nneedle\n")
	request := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/executeCommand","params":{"command":"structls.search","arguments":[{"pattern":"needle"}]}}`, id)
	}
	didOpen := `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x/é.txt","languageId":"plaintext","version":1,"text":"café ☕ 🎉"}}}`
	frame := func(length int, body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", length, body) }
	runes := len([]rune(didOpen))
	tests := []struct {
		name string
		bad  string // written before a good request
	}{
		{"length in characters, too short", frame(runes, didOpen)},
		{"length too long by a few bytes", frame(len(didOpen)+7, didOpen)},
		{"length much too long", frame(len(didOpen)+40, didOpen)},
		{"duplicate Content-Length, equal", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"},
		{"duplicate Content-Length, different", fmt.Sprintf("Content-Length: %d\r\nContent-Length: 5\r\n\r\n%s", len(didOpen), didOpen)},
		{"header line without a newline", "Content-Length: 5" + strings.Repeat("9", 100_000)},
		{"long garbage line before a frame", strings.Repeat("x", 100_000)},
		{"huge header block", strings.Repeat("X-Padding: abc\r\n", 5000)},
		{"garbage header name", "{\"a\": 1}\r\n\r\n"},
		{"long Content-Length line", "Content-Length: " + strings.Repeat("1", 20_000) + "\r\n\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newRawClient(t)
			c.initialize(dir)
			for round := range 3 { // once is not enough: the stream must stay in step
				id := 10 + round
				if _, err := c.w.WriteString(tt.bad + frame(len(request(id)), request(id))); err != nil {
					t.Fatal(err)
				}
				m := c.readUntil(func(m message) bool { return m.Method == "" })
				if m.Error == nil || m.Error.Code != -32700 || string(m.ID) != "null" {
					t.Fatalf("round %d: first reply %+v %s; want a ParseError with id null", round, m.Error, m.ID)
				}
				m = c.readUntil(func(m message) bool { return m.Method == "" })
				if string(m.ID) != jsonID(id) || m.Error != nil || !strings.Contains(string(m.Result), `"matchCount":1`) {
					t.Fatalf("round %d: reply %s %+v %s; want the search result for id %d", round, m.ID, m.Error, m.Result, id)
				}
			}
		})
	}
}

// TestHeaderLineMemoryIsBounded streams a 64 MiB header line with no
// newline, before initialize: the server must discard it as it comes, not
// hold it, and then answer the next frame.
func TestHeaderLineMemoryIsBounded(t *testing.T) {
	c := newRawClient(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	go func() {
		_, _ = c.w.WriteString("Content-Length: 10\r\nX-Junk: ")
		for range 64 {
			if _, err := c.w.Write(chunk); err != nil {
				return
			}
		}
		c.send(1, "shutdown", nil)
	}()
	m := c.readUntil(func(m message) bool { return m.Method == "" })
	if m.Error == nil || m.Error.Code != -32700 {
		t.Fatalf("first reply %+v; want a ParseError", m.Error)
	}
	m = c.reply("1")
	if m.Error == nil || m.Error.Code != -32002 {
		t.Fatalf("reply to the request after the junk: %+v; want ServerNotInitialized", m.Error)
	}
	runtime.ReadMemStats(&after)
	const budget = 16 << 20
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB while reading the 64 MiB line", allocated>>10)
	if allocated > budget {
		t.Errorf("reading a 64 MiB header line allocated %d MiB; want less than %d MiB", allocated>>20, budget>>20)
	}
}
