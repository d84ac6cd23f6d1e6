package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// awaitLogs waits until the editor has received n notes, and returns them.
func awaitLogs(t *testing.T, ed *client.Editor, n int) []string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(ed.Logs()) < n && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	return ed.Logs()
}

// bufferText returns what the server searches for the open file a.txt.
func bufferText(t *testing.T, ed *client.Editor) []string {
	t.Helper()
	res, err := searchResult(t, ed, map[string]any{"pattern": ".", "paths": []string{"a.txt"}, "contextBefore": 0, "contextAfter": 0})
	if err != nil {
		t.Fatal(err)
	}
	return res.lines()
}

// TestDidChangeNeverReplacesOnBadRange sends changes whose range cannot be
// decoded: they must be refused and logged, never taken as a whole-document
// replacement; the buffer keeps its last good text and refuses increments
// until the whole text is sent again.
func TestDidChangeNeverReplacesOnBadRange(t *testing.T) {
	pos := func(line, char any) map[string]any { return map[string]any{"line": line, "character": char} }
	for _, tt := range []struct {
		name   string
		change map[string]any
	}{
		{"negative line", map[string]any{"range": map[string]any{"start": pos(-1, 0), "end": pos(0, 0)}, "text": "X"}},
		{"negative character", map[string]any{"range": map[string]any{"start": pos(0, 0), "end": pos(0, -3)}, "text": "X"}},
		{"over 2^32", map[string]any{"range": map[string]any{"start": pos(0, 0), "end": pos(int64(1)<<32, 0)}, "text": "X"}},
		{"fractional", map[string]any{"range": map[string]any{"start": pos(0.5, 0), "end": pos(0, 0)}, "text": "X"}},
		{"null range", map[string]any{"range": nil, "text": "X"}},
		{"range without end", map[string]any{"range": map[string]any{"start": pos(0, 0)}, "text": "X"}},
		{"no text", map[string]any{"range": map[string]any{"start": pos(0, 0), "end": pos(0, 0)}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := testutil.WriteTree(t, "-- a.txt --\non disk\n")
			ed := newEditor(t, dir, client.EditorOptions{})
			ctx := context.Background()
			uri, err := ed.OpenFile(ctx, filepath.Join(dir, "a.txt"), "plaintext", "first line\nsecond line\n")
			if err != nil {
				t.Fatal(err)
			}
			change := func(version int, changes ...any) {
				if err := ed.Notify(ctx, "textDocument/didChange", map[string]any{
					"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": changes}); err != nil {
					t.Fatal(err)
				}
			}
			good := []string{"a.txt:1:first line", "a.txt:2:second line"}
			change(2, tt.change)
			if diff := cmp.Diff(good, bufferText(t, ed)); diff != "" {
				t.Fatalf("after the bad change (-want +got):\n%s", diff)
			}
			// An incremental change now would apply to text the editor no longer has.
			change(3, map[string]any{"range": map[string]any{"start": pos(0, 0), "end": pos(0, 0)}, "text": ">"})
			if diff := cmp.Diff(good, bufferText(t, ed)); diff != "" {
				t.Fatalf("an incremental change was applied while out of sync (-want +got):\n%s", diff)
			}
			logs := awaitLogs(t, ed, 2)
			if len(logs) != 2 || !strings.Contains(logs[0], "textDocument/didChange") || !strings.Contains(logs[0], "no change of this notification was applied") ||
				!strings.Contains(logs[1], "earlier change was lost") {
				t.Errorf("notes %q; want the refused change and the refused increment", logs)
			}
			// The whole text resyncs; increments apply again.
			change(4, map[string]any{"text": "resynced\n"})
			change(5, map[string]any{"range": map[string]any{"start": pos(0, 0), "end": pos(0, 0)}, "text": ">"})
			if diff := cmp.Diff([]string{"a.txt:1:>resynced"}, bufferText(t, ed)); diff != "" {
				t.Errorf("after the resync (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWorkspaceFolderOddShapes sends the shapes real clients send to
// didChangeWorkspaceFolders: the well-formed entries apply, the rest are
// skipped with one note.
func TestWorkspaceFolderOddShapes(t *testing.T) {
	first := testutil.WriteTree(t, "-- a.txt --\nneedle one\n")
	second := testutil.WriteTree(t, "-- b.txt --\nneedle two\n")
	entry := map[string]string{"uri": workspace.PathToURI(second), "name": "second"}
	for _, tt := range []struct {
		name      string
		event     any
		wantNote  string // "" for none
		wantPaths []string
	}{
		{"neovim 0.7 empty table", map[string]any{"added": []any{entry}, "removed": []any{[]any{}}}, `removed[0] ([]) has no "uri"`, []string{"a.txt", "b.txt"}},
		{"empty object for a list", map[string]any{"added": []any{entry}, "removed": map[string]any{}}, "", []string{"a.txt", "b.txt"}},
		{"null lists", map[string]any{"added": []any{entry}, "removed": nil}, "", []string{"a.txt", "b.txt"}},
		{"odd entries", map[string]any{"added": []any{5, entry, map[string]any{"uri": 3}}, "removed": "x"},
			`added[0] (5) has no "uri", so it was skipped; added[2] ({"uri":3}) has no "uri", so it was skipped; "removed" is not an array`, []string{"a.txt", "b.txt"}},
		{"missing folder", map[string]any{"added": []any{entry, map[string]any{"uri": "file:///no/such/dir"}}},
			"workspace folder /no/such/dir cannot be opened", []string{"a.txt", "b.txt"}},
		{"no event", nil, `params must be an object {"event"`, []string{"a.txt"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ed := newEditor(t, first, client.EditorOptions{})
			params := map[string]any{"event": tt.event}
			if tt.event == nil {
				params = map[string]any{}
			}
			if err := ed.Notify(context.Background(), "workspace/didChangeWorkspaceFolders", params); err != nil {
				t.Fatal(err)
			}
			res, err := searchResult(t, ed, map[string]any{"pattern": "needle"})
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, m := range res.Matches {
				paths = append(paths, m.Path)
			}
			if diff := cmp.Diff(tt.wantPaths, paths); diff != "" {
				t.Errorf("folders searched (-want +got):\n%s", diff)
			}
			if tt.wantNote == "" {
				time.Sleep(20 * time.Millisecond)
				if logs := ed.Logs(); len(logs) != 0 {
					t.Errorf("notes %q; want none", logs)
				}
				return
			}
			if logs := awaitLogs(t, ed, 1); len(logs) != 1 || !strings.Contains(logs[0], tt.wantNote) {
				t.Errorf("notes %q; want one containing %q", logs, tt.wantNote)
			}
		})
	}
}

// TestNotificationErrorsNameTheMethodOnce sends a malformed instance of
// every notification the server acts on: each gets one note, naming the
// method once and repeating no prefix ("x: x: …").
func TestNotificationErrorsNameTheMethodOnce(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nx\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	bad := []struct {
		method string
		params any
	}{
		{"textDocument/didOpen", "not an object"},
		{"textDocument/didOpen", nil},
		{"textDocument/didChange", "not an object"},
		{"textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere", "version": 2}, "contentChanges": []any{}}},
		{"textDocument/didClose", []int{1}},
		{"textDocument/didSave", 5},
		{"workspace/didChangeWatchedFiles", "x"},
		{"workspace/didChangeWorkspaceFolders", "x"},
	}
	for _, b := range bad {
		var params any = b.params
		if b.params == nil {
			params = json.RawMessage("null")
		}
		if err := ed.Notify(context.Background(), b.method, params); err != nil {
			t.Fatal(err)
		}
	}
	logs := awaitLogs(t, ed, len(bad))
	if len(logs) != len(bad) {
		t.Fatalf("%d notes for %d bad notifications: %q", len(logs), len(bad), logs)
	}
	for _, note := range logs {
		parts := strings.Split(note, ": ")
		for i := 1; i < len(parts); i++ {
			if parts[i] == parts[i-1] {
				t.Errorf("note %q repeats %q", note, parts[i])
			}
		}
		if strings.Count(note, "textDocument/")+strings.Count(note, "workspace/") != 1 {
			t.Errorf("note %q names its method more or less than once", note)
		}
	}
}
