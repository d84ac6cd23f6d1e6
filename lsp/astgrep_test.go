package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	golang "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/lsp/client"
)

func init() { lang.Register("go", golang.Language) }

func TestAstGrepSeesUnsavedText(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc f() error {\n\treturn nil\n}\n")
	ed := newEditor(t, dir, client.EditorOptions{WorkDoneProgress: true})
	ctx := context.Background()
	uri, err := ed.OpenFile(ctx, filepath.Join(dir, "a.go"), "go", "package a\n\nfunc f() error {\n\tif err := g(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := ed.ExecuteCommand(ctx, CommandAstGrep, map[string]any{"pattern": "if $E := $CALL; $E != nil { $$$ }"})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Matches []struct {
			URI, Text, Language string
			MetaVariables       map[string]json.RawMessage
		}
		MatchCount int
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if res.MatchCount != 1 || res.Matches[0].URI != uri || res.Matches[0].Language != "go" ||
		!strings.Contains(string(res.Matches[0].MetaVariables["CALL"]), `"text":"g()"`) {
		t.Fatalf("result %s; want the if statement of the unsaved buffer with CALL=g()", raw)
	}
}

func TestAstGrepBadInput(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	for _, tt := range []struct {
		arg  map[string]any
		want string
	}{
		{map[string]any{"pattern": "  "}, "pattern must not be empty"},
		{map[string]any{"pattern": "$$$A", "lang": "go"}, "multi metavariable"},
		{map[string]any{"pattern": "x", "lang": "brainfuck"}, "unsupported language"},
		{map[string]any{"pattern": "x", "strictness": "loose"}, "unknown strictness"},
		{map[string]any{"pattern": "x", "skip": -1}, "skip must be"},
		{map[string]any{"pattern": "x", "limit": 1e12}, "limit must be"},
		{map[string]any{"pattern": "x", "lang": "go", "selector": "no_such_kind"}, "selector"},
		{map[string]any{"pattern": "x", "contextLines": -2}, "contextLines"},
		{map[string]any{"patern": "x"}, "unknown field"},
	} {
		_, err := ed.ExecuteCommand(context.Background(), CommandAstGrep, tt.arg)
		if client.ErrorCode(err) != -32602 || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v; want InvalidParams containing %q", tt.arg, err, tt.want)
		}
	}
}
