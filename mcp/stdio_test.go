package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// TestStdioAnswersBadLinesAndGoesOn: over stdio, a line that is not a
// JSON-RPC message — bad JSON, two messages on a line, a bare value, a
// batch, a wrong version or id, a line over the size bound — gets a
// JSON-RPC error (with its id when one can be read) and the session goes
// on: the request after them is answered.
func TestStdioAnswersBadLinesAndGoesOn(t *testing.T) {
	s, err := New(context.Background(), Options{Roots: []string{t.TempDir()}, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	bad := []string{
		`{`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/list"} {"jsonrpc":"2.0","id":8,"method":"tools/list"}`,
		`null`, `"str"`, `[]`, `[{"jsonrpc":"2.0","id":9,"method":"tools/list"}]`,
		`{"jsonrpc":"1.0","id":10,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`,
		"\xff\xfe garbage",
		`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"search","arguments":{"pattern":"` + strings.Repeat("a", maxLine) + `"}}}`,
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), inR, outW) }()
	go func() {
		fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
		fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for _, line := range bad {
			fmt.Fprintln(inW, line)
		}
		fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":99,"method":"tools/list"}`)
	}()
	out := bufio.NewScanner(outR)
	out.Buffer(nil, 4<<20)
	errorsSeen, ids := 0, map[string]bool{}
	deadline := time.AfterFunc(60*time.Second, func() { outR.Close() })
	defer deadline.Stop()
	for out.Scan() {
		var m struct {
			ID     json.RawMessage
			Error  *struct{ Code int }
			Result json.RawMessage
		}
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("the server wrote %q: %v", out.Text(), err)
		}
		if m.Error != nil {
			errorsSeen++
			ids[string(m.ID)] = true
		}
		if string(m.ID) == "99" {
			if m.Result == nil {
				t.Errorf("the request after the bad lines: %s", out.Text())
			}
			break
		}
	}
	if errorsSeen != len(bad) {
		t.Errorf("%d errors for %d bad lines", errorsSeen, len(bad))
	}
	for _, id := range []string{"10", "11"} {
		if !ids[id] {
			t.Errorf("no error with id %s (ids %v): a message whose id can be read gets it back", id, ids)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
}

// TestStdioHoldsAtMostMaxInFlight: the guard reads no further while
// maxInFlight requests are unanswered; an answer, or a cancellation, lets
// the next one in.
func TestStdioHoldsAtMostMaxInFlight(t *testing.T) {
	var in strings.Builder
	for i := range maxInFlight + 2 {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", i)
	}
	g := newStdioGuard(io.NopCloser(strings.NewReader(in.String())), io.Discard)
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(g)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() (string, bool) {
		select {
		case l, ok := <-lines:
			return l, ok
		case <-time.After(2 * time.Second):
			return "", false
		}
	}
	for i := range maxInFlight {
		if _, ok := next(); !ok {
			t.Fatalf("only %d requests read", i)
		}
	}
	if l, ok := next(); ok {
		t.Fatalf("read %q with %d requests unanswered", l, maxInFlight)
	}
	g.out.Write([]byte(`{"jsonrpc":"2.0","id":0,"result":{}}` + "\n"))
	if l, ok := next(); !ok || !strings.Contains(l, `"id":64`) {
		t.Fatalf("after an answer: %q %v; want request 64", l, ok)
	}
	if !g.accept([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)) {
		t.Fatal("the cancellation was not passed on")
	}
	if l, ok := next(); !ok || !strings.Contains(l, `"id":65`) {
		t.Fatalf("after a cancellation: %q %v; want request 65", l, ok)
	}
}
