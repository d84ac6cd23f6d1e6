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

	"github.com/structls/structls/internal/testutil"
)

// Hostile input to the rewrite commands and their code actions: each gets
// a short error that says what to pass instead, and changes nothing.

// TestEditIDHostile: applyEdit, discardEdit and codeAction/resolve with ids
// that are missing, empty, huge or forged.
func TestEditIDHostile(t *testing.T) {
	dir := testutil.WriteTree(t, editTree)
	before := treeDigest(t, dir)
	ed := newEditor(t, dir, EditorOptions{ResolveActions: true})
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
			if ErrorCode(err) != -32602 || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 300 {
				t.Errorf("%s, %s: %.300v; want InvalidParams of at most 300 bytes mentioning %q", cmd, c.name, err, c.want)
			}
		}
	}
	for _, data := range []map[string]any{{"id": huge}, {"id": huge, "uri": "file:///x", "index": 0}} {
		var action json.RawMessage
		err := ed.Call(ctx, "codeAction/resolve", map[string]any{"title": "forged", "data": data}, &action)
		if ErrorCode(err) == 0 || len(err.Error()) > 300 {
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
