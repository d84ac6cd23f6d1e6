package lsp

import (
	"encoding/json"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// TestPreviewReplyJSON: the preview's own encoder writes the very bytes
// encoding/json writes, escapes included.
func TestPreviewReplyJSON(t *testing.T) {
	v := int32(3)
	tricky := "<a href=\"x\"> & \u2028 \\ é \x01\t\n"
	res := &rewrite.Result{ID: "edit-0123", TotalReplacements: 2, FilesTouched: 1, ParseErrors: nil, Warnings: []string{tricky},
		Text: "# a.go\n" + tricky,
		Files: []rewrite.FileEdit{{Path: "a.go", URI: "file:///w/a.go", Version: &v, Replacements: []rewrite.Replacement{
			{Range: workspace.Range{End: workspace.Position{Line: 1, Character: 2}}, ByteRange: workspace.ByteRange{Start: 0, End: 5}, Before: tricky, After: tricky + "after"},
			{Before: "", After: ""},
		}}}}
	edit := &protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{&protocol.TextDocumentEdit{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: "file:///w/a.go"}, Version: &v},
		Edits:        []protocol.TextDocumentEditElement{&protocol.TextEdit{NewText: tricky}},
	}}}
	for _, r := range []*previewReply{{Result: res, Edit: edit}, {Result: res}} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.AppendJSON([]byte("prefix")); string(got) != "prefix"+string(want) {
			t.Errorf("AppendJSON:\n%s\nencoding/json:\n%s", got, want)
		}
	}
}
