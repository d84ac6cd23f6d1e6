package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// Hostile input to the rewrite commands and their code actions: each gets
// a short error that says what to pass instead, and changes nothing.

// TestEditIDHostile: applyEdit, discardEdit and codeAction/resolve with ids
// that are missing, empty, huge or forged.
func TestEditIDHostile(t *testing.T) {
	dir := testutil.WriteTree(t, editTree)
	before := treeDigest(t, dir)
	ed := newEditor(t, dir, client.EditorOptions{ResolveActions: true})
	ctx := context.Background()
	huge := "edit-" + strings.Repeat("0", 1<<20)
	cases := []struct {
		name string
		arg  map[string]any
		want string // a part of the message
	}{
		{"no id", map[string]any{}, "needs the id"},
		{"null id", map[string]any{"id": nil}, "needs the id"},
		{"empty id", map[string]any{"id": ""}, "needs the id"},
		{"huge id", map[string]any{"id": huge}, "is not the id of a preview"},
		{"forged id", map[string]any{"id": "edit-0123456789abcdef"}, "preview the edit first"},
	}
	for _, c := range cases {
		for _, cmd := range []string{CommandApplyEdit, CommandDiscardEdit} {
			_, err := ed.ExecuteCommand(ctx, cmd, c.arg)
			if client.ErrorCode(err) != -32602 || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 300 {
				t.Errorf("%s, %s: %.300v; want InvalidParams of at most 300 bytes mentioning %q", cmd, c.name, err, c.want)
			}
		}
	}
	for _, data := range []map[string]any{{"id": huge}, {"id": huge, "uri": "file:///x", "index": 0}} {
		var action json.RawMessage
		err := ed.Call(ctx, "codeAction/resolve", map[string]any{"title": "forged", "data": data}, &action)
		if client.ErrorCode(err) == 0 || len(err.Error()) > 300 {
			t.Errorf("resolve with a huge id: %.300v; want an error of at most 300 bytes", err)
		}
	}
	if after := treeDigest(t, dir); !maps.Equal(before, after) {
		t.Errorf("the workspace changed: %v, was %v", after, before)
	}
}

// treeDigest maps every file under dir to its mode and the sha256 of its
// bytes: two digests are equal when no byte or mode changed.
func treeDigest(t *testing.T, dir string) map[string]string {
	t.Helper()
	digest := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		content, err := os.ReadFile(path)
		if err != nil && info.Mode().IsRegular() {
			return err
		}
		digest[path] = fmt.Sprintf("%v %x", info.Mode(), sha256.Sum256(content))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return digest
}

// TestConcurrentAppliesOfOneFile: two previews touching one closed file,
// applied at once by a client that writes files itself (a bare agent). The
// second apply must be checked against the text the first one made, so it
// is refused as stale; before, both passed their checks side by side and
// the second edit was sent onto text that had changed under it.
func TestConcurrentAppliesOfOneFile(t *testing.T) {
	dir := testutil.WriteTree(t, editTree)
	c := applyingClient(t, dir)
	var ids []string
	for i, op := range []map[string]any{{"pattern": "println($A)", "rewrite": "fmt.Println($A)"}, {"pattern": `println("c")`, "rewrite": `log.Print("c")`}} {
		c.send(10+i, "workspace/executeCommand", map[string]any{"command": CommandAstEdit, "arguments": []any{map[string]any{"ops": []any{op}}}})
		m := c.reply(fmt.Sprint(10 + i))
		var res struct{ ID string }
		if m.Error != nil || json.Unmarshal(m.Result, &res) != nil || res.ID == "" {
			t.Fatalf("preview %d: %s %+v", i, m.Result, m.Error)
		}
		ids = append(ids, res.ID)
	}
	for i, id := range ids {
		c.send(20+i, "workspace/executeCommand", map[string]any{"command": CommandApplyEdit, "arguments": []any{map[string]any{"id": id}}})
	}
	edits, replies := 0, map[string]message{}
	for len(replies) < 2 {
		m := c.recv()
		switch {
		case m.Method == "workspace/applyEdit":
			edits++ // apply it as a bare agent does: on disk, then answer
			if err := os.WriteFile(filepath.Join(dir, "b.go"), []byte("package a\n\n// the client's edit\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"applied":true}}`, m.ID))
		case m.Method != "" && m.ID != nil:
			c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID))
		case m.Method == "" && (string(m.ID) == "20" || string(m.ID) == "21"):
			replies[string(m.ID)] = m
		}
	}
	refused := 0
	for _, m := range replies {
		if m.Error != nil && m.Error.Code == int(ContentModified) && strings.Contains(m.Error.Message, "b.go") {
			refused++
		}
	}
	if edits != 1 || refused != 1 {
		t.Errorf("%d workspace/applyEdit sent, %d apply refused as stale (%+v); want one sent and the other refused", edits, refused, replies)
	}
	c.send(99, "shutdown", nil)
	c.reply("99")
	c.send(nil, "exit", nil)
	<-c.code
}

// TestCancelWhileEditorConfirms: an apply whose workspace/applyEdit the
// editor has not answered (a Refactor Preview left open) stops at
// $/cancelRequest with RequestCancelled, not a claim that the editor did
// not apply the edit (it still may), and keeps the preview for a retry;
// an apply queued behind it is cancelled the same way.
func TestCancelWhileEditorConfirms(t *testing.T) {
	dir := testutil.WriteTree(t, editTree)
	c := applyingClient(t, dir)
	c.send(2, "workspace/executeCommand", map[string]any{"command": CommandAstEdit, "arguments": []any{printRewrite}})
	var res struct{ ID string }
	if m := c.reply("2"); m.Error != nil || json.Unmarshal(m.Result, &res) != nil {
		t.Fatalf("preview: %+v", m.Error)
	}
	apply := map[string]any{"command": CommandApplyEdit, "arguments": []any{map[string]any{"id": res.ID}}}
	c.send(3, "workspace/executeCommand", apply)
	for m := c.recv(); m.Method != "workspace/applyEdit"; m = c.recv() { // left unanswered
	}
	c.send(4, "workspace/executeCommand", apply) // waits behind it
	for _, id := range []int{4, 3} {
		c.send(nil, "$/cancelRequest", map[string]any{"id": id})
		if m := c.reply(fmt.Sprint(id)); m.Error == nil || m.Error.Code != int(RequestCancelled) {
			t.Errorf("apply %d after $/cancelRequest: result %s, error %+v; want RequestCancelled", id, m.Result, m.Error)
		}
	}
	c.send(5, "workspace/executeCommand", map[string]any{"command": CommandDiscardEdit, "arguments": []any{map[string]any{"id": res.ID}}})
	if m := c.reply("5"); m.Error != nil {
		t.Errorf("the cancelled preview is no longer pending: %v", m.Error.Message)
	}
	c.send(99, "shutdown", nil)
	c.reply("99")
	c.send(nil, "exit", nil)
	<-c.code
}

// applyingClient is a raw client initialised on dir that declares
// workspace.applyEdit with documentChanges; the test answers the server's
// workspace/applyEdit itself.
func applyingClient(t *testing.T, dir string) *rawClient {
	t.Helper()
	c := newRawClient(t)
	c.send(1, "initialize", map[string]any{"processId": nil,
		"capabilities":     map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}},
		"workspaceFolders": []map[string]string{{"uri": workspace.PathToURI(dir), "name": "w"}}})
	if m := c.reply("1"); m.Error != nil {
		t.Fatalf("initialize: %v", m.Error.Message)
	}
	c.send(nil, "initialized", map[string]any{})
	return c
}

// TestEditorAnswersApplyEditOddly: whatever the editor answers to
// workspace/applyEdit (null, a wrong type, an error), the apply replies
// applied: false with the reason, the server lives on, and the preview stays
// pending; a null answer used to panic the handler and lose the preview.
func TestEditorAnswersApplyEditOddly(t *testing.T) {
	for _, answer := range []string{`"result":null`, `"result":[]`, `"result":{"applied":"yes"}`, `"error":{"code":-32603,"message":"User cancelled"}`} {
		t.Run(answer, func(t *testing.T) {
			dir := testutil.WriteTree(t, editTree)
			c := applyingClient(t, dir)
			c.send(2, "workspace/executeCommand", map[string]any{"command": CommandAstEdit, "arguments": []any{printRewrite}})
			var res struct{ ID string }
			if m := c.reply("2"); m.Error != nil || json.Unmarshal(m.Result, &res) != nil {
				t.Fatalf("preview: %+v", m.Error)
			}
			c.send(3, "workspace/executeCommand", map[string]any{"command": CommandApplyEdit, "arguments": []any{map[string]any{"id": res.ID}}})
			m := c.recv()
			for ; m.Method != "workspace/applyEdit"; m = c.recv() {
			}
			c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,%s}`, m.ID, answer))
			var reply applyResult
			if m := c.reply("3"); m.Error != nil || json.Unmarshal(m.Result, &reply) != nil || reply.Applied || reply.FailureReason == "" {
				t.Errorf("apply: result %s, error %+v; want applied: false with a reason", m.Result, m.Error)
			}
			c.send(4, "workspace/executeCommand", map[string]any{"command": CommandDiscardEdit, "arguments": []any{map[string]any{"id": res.ID}}})
			if m := c.reply("4"); m.Error != nil {
				t.Errorf("the preview is no longer pending: %v", m.Error.Message)
			}
			c.send(99, "shutdown", nil)
			c.reply("99")
			c.send(nil, "exit", nil)
			<-c.code
		})
	}
}

// TestReplacementAtBoundaries: "Apply this replacement only" is offered with
// the cursor anywhere from a replacement's start to its end inclusive (an
// editor's cursor sits after the last character typed or selected); where
// one replacement ends and the next starts, the next wins.
func TestReplacementAtBoundaries(t *testing.T) {
	at := func(line, char int) workspace.Position { return workspace.Position{Line: line, Character: char} }
	file := &rewrite.FileEdit{Replacements: []rewrite.Replacement{
		{Range: workspace.Range{Start: at(1, 4), End: at(1, 8)}},
		{Range: workspace.Range{Start: at(1, 8), End: at(1, 12)}},
		{Range: workspace.Range{Start: at(2, 0), End: at(3, 2)}},
	}}
	for _, c := range []struct {
		line, char, want int
	}{
		{1, 3, -1}, {1, 4, 0}, {1, 7, 0}, {1, 8, 1}, {1, 12, 1}, {1, 13, -1},
		{2, 0, 2}, {2, 99, 2}, {3, 2, 2}, {3, 3, -1}, {0, 0, -1}, {9, 0, -1},
	} {
		cursor := protocol.Range{Start: protocol.Position{Line: uint32(c.line), Character: uint32(c.char)}}
		cursor.End = cursor.Start
		if got := replacementAt(file, cursor); got != c.want {
			t.Errorf("cursor at %d:%d: replacement %d; want %d", c.line, c.char, got, c.want)
		}
	}
}
