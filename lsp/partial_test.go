package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
)

// TestAstGrepPartialResults: with a partialResultToken, structls.astGrep
// sends its matches in $/progress batches before the reply, and the
// batches followed by the reply hold exactly what the reply holds without
// a token — the same matches in the same order, byte for byte, and the
// same text — for every page and format.
func TestAstGrepPartialResults(t *testing.T) {
	var archive strings.Builder
	for i := range 40 {
		fmt.Fprintf(&archive, "-- p%d/f%02d.go --\npackage p\n\nfunc g() { f(%d); f(\"<&>\") }\n", i%3, i, i)
	}
	dir := testutil.WriteTree(t, archive.String())
	ed := newEditor(t, dir, client.EditorOptions{})
	for _, q := range []map[string]any{
		{"pattern": "f($A)", "limit": 0},
		{"pattern": "f($A)", "limit": 0, "format": "text"},
		{"pattern": "f($A)", "skip": 5, "limit": 30, "format": "text"},
		{"pattern": "nothing($A)", "format": "text"},
	} {
		batches, matches := checkStreamed(t, ed, CommandAstGrep, "matches", q)
		if q["pattern"] == "f($A)" && (batches == 0 || batches > matches) {
			t.Errorf("%v: %d batches for %d matches", q, batches, matches)
		}
	}
	if len(ed.Progress()) != 0 {
		t.Errorf("partial results were recorded as work-done progress: %+v", ed.Progress()[0])
	}
}

// TestOutlinePartialResults: structls.outline streams its files as
// astGrep does its matches.
func TestOutlinePartialResults(t *testing.T) {
	var archive strings.Builder
	for i := range 40 {
		fmt.Fprintf(&archive, "-- p%d/f%02d.go --\npackage p\n\nfunc G%d() {}\n\ntype T%d struct{ A int }\n", i%3, i, i, i)
	}
	dir := testutil.WriteTree(t, archive.String())
	ed := newEditor(t, dir, client.EditorOptions{})
	for _, q := range []map[string]any{
		{"limit": 0},
		{"limit": 0, "format": "text", "view": "digest"},
		{"skip": 5, "limit": 30, "format": "text", "textOnly": true},
		{"match": "^nothing$", "format": "text"},
	} {
		batches, files := checkStreamed(t, ed, CommandOutline, "files", q)
		if q["match"] == nil && (batches == 0 || batches > files && files > 0) {
			t.Errorf("%v: %d batches for %d files", q, batches, files)
		}
	}
}

// TestSearchPartialResults: structls.search streams its matches in
// batches of about 64 KB, each file's whole, once the files are scanned.
func TestSearchPartialResults(t *testing.T) {
	var archive strings.Builder
	for i := range 200 {
		fmt.Fprintf(&archive, "-- p%d/f%03d.go --\npackage p\n\nfunc g() { f(%d); f(\"<&>\") }\n// f again %s\n", i%3, i, i, strings.Repeat("x", 3000))
	}
	dir := testutil.WriteTree(t, archive.String())
	ed := newEditor(t, dir, client.EditorOptions{})
	for _, q := range []map[string]any{
		{"pattern": "f\\b", "limit": 0, "perFileLimit": 0},
		{"pattern": "f\\(", "limit": 0, "contextBefore": 2, "contextAfter": 1},
		{"pattern": "f\\(", "skip": 5, "limit": 30},
		{"pattern": "f\\b", "limit": 0, "format": "text"}, // the rendering's cap ends the page
		{"pattern": "nothing"},
	} {
		batches, matches := checkStreamed(t, ed, CommandSearch, "matches", q)
		switch {
		case q["pattern"] == "nothing" && batches != 0:
			t.Errorf("%v: %d batches, want none", q, batches)
		case q["perFileLimit"] != nil && batches < 3:
			t.Errorf("%v: %d batches for %d matches of some 250 KB in all: want batches of about 64 KB", q, batches, matches)
		case batches > matches:
			t.Errorf("%v: %d batches for %d matches", q, batches, matches)
		}
	}
}

// checkStreamed runs command with a partialResultToken and checks that its
// batches followed by the reply hold exactly what the reply holds without
// a token: the same list (list: matches or files) in the same order, byte
// for byte, and the same text. It returns how many batches and list
// elements were streamed.
func checkStreamed(t *testing.T, ed *client.Editor, command, list string, q map[string]any) (int, int) {
	t.Helper()
	ctx := context.Background()
	want, err := ed.ExecuteCommand(ctx, command, q)
	if err != nil {
		t.Fatal(err)
	}
	var elements [][]byte
	text, batches := "", 0
	final, err := ed.ExecuteCommandStreaming(ctx, command, q, func(value json.RawMessage) error {
		var b map[string]json.RawMessage
		if err := json.Unmarshal(value, &b); err != nil {
			return err
		}
		var got []json.RawMessage
		if err := json.Unmarshal(b[list], &got); err != nil {
			return err
		}
		var batchText string
		if b["text"] != nil {
			if err := json.Unmarshal(b["text"], &batchText); err != nil {
				return err
			}
		}
		batches++
		for _, m := range got {
			elements = append(elements, m)
		}
		text += batchText
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(final, &got); err != nil {
		t.Fatal(err)
	}
	if string(got[list]) != "[]" {
		t.Errorf("%v: the final reply holds %s %.80s; want [] (all were streamed)", q, list, got[list])
	}
	// The elements as sent (json.Marshal would escape them again); the
	// reply's text (the tail) is left out when empty.
	got[list] = append(append([]byte("["), bytes.Join(elements, []byte(","))...), ']')
	if got["text"] != nil || text != "" {
		var tail string
		_ = json.Unmarshal(got["text"], &tail)
		got["text"], _ = json.Marshal(text + tail)
	}
	var wantFields map[string]json.RawMessage
	if err := json.Unmarshal(want, &wantFields); err != nil {
		t.Fatal(err)
	}
	for name, w := range wantFields {
		if got[name] == nil || !bytes.Equal(compactJSON(t, w), compactJSON(t, got[name])) {
			t.Errorf("%v: %s streamed %.200s; unstreamed %.200s", q, name, got[name], w)
		}
	}
	return batches, len(elements)
}

func compactJSON(t *testing.T, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("%v: %.80s", err, raw)
	}
	return b.Bytes()
}

// TestPartialResultTokenMustBeStringOrInteger: any other token is refused
// with InvalidParams, as a work-done token would be.
func TestPartialResultTokenMustBeStringOrInteger(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	for _, token := range []any{map[string]any{"a": 1}, 1.5, true, []int{1}} {
		err := ed.Call(context.Background(), "workspace/executeCommand", map[string]any{"command": CommandAstGrep,
			"arguments": []any{map[string]any{"pattern": "f($A)"}}, "partialResultToken": token}, nil)
		if client.ErrorCode(err) != int(jsonrpc2.InvalidParams) || !strings.Contains(err.Error(), "partialResultToken") {
			t.Errorf("token %v: error %v; want InvalidParams naming partialResultToken", token, err)
		}
	}
}
