package client

import (
	"context"
	"net"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/structls/structls/workspace"
)

// TestEditorRejectsStaleWorkspaceEdit checks the test client itself: like a
// real editor, it applies a versioned WorkspaceEdit only when the version
// matches its buffer, and then tells the server the new text.
func TestEditorRejectsStaleWorkspaceEdit(t *testing.T) {
	serverSide, clientSide := net.Pipe()
	ed := NewEditor(clientSide, EditorOptions{})
	defer ed.Close()
	changes := make(chan string, 1)
	server := jsonrpc2.NewConn(jsonrpc2.NewStream(serverSide))
	server.Go(context.Background(), func(_ context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == "textDocument/didChange" {
			changes <- string(req.Params())
		}
		return nil, nil
	})
	defer server.Close()
	ctx := context.Background()
	uri, err := ed.OpenFile(ctx, "/w/a.txt", "plaintext", "hello world\n")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(version int) applyEditResult {
		var res applyEditResult
		params := map[string]any{"edit": map[string]any{"documentChanges": []any{map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": version},
			"edits": []any{
				map[string]any{"range": workspace.Range{Start: workspace.Position{Line: 0, Character: 0}, End: workspace.Position{Line: 0, Character: 5}}, "newText": "goodbye"},
				map[string]any{"range": workspace.Range{Start: workspace.Position{Line: 0, Character: 6}, End: workspace.Position{Line: 0, Character: 11}}, "newText": "moon"},
			}}}}}
		if _, err := server.Call(ctx, "workspace/applyEdit", params, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := edit(7); res.Applied || !strings.Contains(res.FailureReason, "do not match") {
		t.Fatalf("stale edit: %+v; want it refused", res)
	}
	if text, _ := ed.BufferText(uri); text != "hello world\n" {
		t.Fatalf("buffer changed by a refused edit: %q", text)
	}
	if res := edit(1); !res.Applied {
		t.Fatalf("current edit refused: %s", res.FailureReason)
	}
	if text, _ := ed.BufferText(uri); text != "goodbye moon\n" {
		t.Fatalf("buffer %q; want both edits applied to the original ranges", text)
	}
	if change := <-changes; !strings.Contains(change, `"version":2`) || !strings.Contains(change, "goodbye moon") {
		t.Errorf("didChange %s; want version 2 with the new text", change)
	}
}
