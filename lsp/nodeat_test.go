package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// nodeAt runs structls.nodeAt and decodes the result.
func nodeAt(t *testing.T, ed *client.Editor, arg map[string]any) (*astgrep.NodeAtResult, error) {
	t.Helper()
	raw, err := ed.ExecuteCommand(context.Background(), CommandNodeAt, arg)
	if err != nil {
		return nil, err
	}
	var res astgrep.NodeAtResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	return &res, nil
}

// TestNodeAtOnTheUnsavedBuffer: the chain is read from the editor's buffer,
// and its positions count in the negotiated encoding (here UTF-16, after a
// string holding an astral character: 2 units, 4 bytes).
func TestNodeAtOnTheUnsavedBuffer(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	text := "package a\n\nfunc f() { s := \"😀\"; g(s) }\n"
	uri, err := ed.OpenFile(context.Background(), filepath.Join(dir, "a.go"), "go", text)
	if err != nil {
		t.Fatal(err)
	}
	// g is at byte 35 (UTF-16 column 22 of line 2; byte 24 of the line: the emoji is 4 bytes, 2 units).
	res, err := nodeAt(t, ed, map[string]any{"uri": uri, "position": map[string]int{"line": 2, "character": 22}})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, n := range res.Nodes {
		k := n.Kind
		if n.Field != "" {
			k = n.Field + ": " + k
		}
		kinds = append(kinds, k)
	}
	want := []string{"source_file", "function_declaration", "body: block", "statement_list", "expression_statement",
		"call_expression", "function: identifier"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Fatalf("chain (-want +got):\n%s", diff)
	}
	last := res.Nodes[len(res.Nodes)-1]
	wantRange := workspace.Range{Start: workspace.Position{Line: 2, Character: 22}, End: workspace.Position{Line: 2, Character: 23}}
	if last.Range != wantRange || last.ByteRange != (workspace.ByteRange{Start: 35, End: 36}) || !last.Named || res.URI != uri || res.Language != "go" {
		t.Errorf("last node %+v in %+v; want identifier g at %v, bytes 35-36", last, res, wantRange)
	}
}

// TestNodeAtCursorPlaces: a cursor right after a word (where typing leaves
// it) is on that word; one on a token is on the anonymous token; one past
// everything is on the root.
func TestNodeAtCursorPlaces(t *testing.T) {
	const source = "package a\n\nvar x = f(1)\n"
	dir := testutil.WriteTree(t, "-- a.go --\n"+source)
	ed := newEditor(t, dir, client.EditorOptions{})
	uri := workspace.PathToURI(filepath.Join(dir, "a.go")) // closed: read from disk
	for _, tt := range []struct {
		line, char int
		want       string
	}{
		{2, 4, "identifier x"},            // on x
		{2, 5, "identifier x"},            // just after x
		{2, 9, "( anonymous"},             // on "("
		{2, 10, "int_literal 1"},          // on 1
		{9, 0, "source_file"},             // past the end
		{1 << 30, 1 << 30, "source_file"}, // far past the end
		{2, 1 << 30, ") anonymous"},       // past the end of line 2: at its end, right after ")"
	} {
		res, err := nodeAt(t, ed, map[string]any{"uri": uri, "position": map[string]int{"line": tt.line, "character": tt.char}})
		if err != nil {
			t.Fatal(err)
		}
		last := res.Nodes[len(res.Nodes)-1]
		got := last.Kind
		switch {
		case !last.Named:
			got += " anonymous"
		case last.Kind != "source_file":
			got += " " + source[last.ByteRange.Start:last.ByteRange.End]
		}
		if got != tt.want {
			t.Errorf("%d:%d: deepest node %q; want %q", tt.line, tt.char, got, tt.want)
		}
	}
}

func TestNodeAtBadInput(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n-- notes.xyz --\nhi\n-- sub/b.go --\npackage b\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	fileURI := workspace.PathToURI(filepath.Join(dir, "a.go"))
	pos := map[string]int{"line": 0, "character": 0}
	for _, tt := range []struct {
		arg  map[string]any
		want string
	}{
		{map[string]any{"position": pos}, "uri must name the document"},
		{map[string]any{"uri": "untitled:Untitled-1", "position": pos}, "untitled"},
		{map[string]any{"uri": workspace.PathToURI(filepath.Join(dir, "nope.go")), "position": pos}, "not found"},
		{map[string]any{"uri": workspace.PathToURI(filepath.Join(dir, "sub")), "position": pos}, "not a single file"},
		{map[string]any{"uri": workspace.PathToURI(filepath.Join(dir, "notes.xyz")), "position": pos}, "set lang"},
		{map[string]any{"uri": fileURI, "position": map[string]int{"line": -1, "character": 0}}, "negative"},
		{map[string]any{"uri": fileURI, "position": pos, "lang": "klingon"}, "klingon"},
		{map[string]any{"uri": fileURI, "pos": pos}, "unknown field"},
		{map[string]any{"uri": "file:///etc/passwd", "position": pos}, "outside"},
	} {
		_, err := nodeAt(t, ed, tt.arg)
		if client.ErrorCode(err) != -32602 || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v; want InvalidParams containing %q", tt.arg, err, tt.want)
		}
	}
	if !slices.Contains(Commands, CommandNodeAt) {
		t.Errorf("Commands %v lacks %s", Commands, CommandNodeAt)
	}
}

// TestAstGrepDebugQuery: structls.astGrep with debugQuery answers the view
// instead of searching, for a pattern and for an unsaved buffer.
func TestAstGrepDebugQuery(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	if _, err := ed.OpenFile(context.Background(), filepath.Join(dir, "a.go"), "go", "package a\n\nvar x = 1\n"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		arg  map[string]any
		want string
	}{
		{map[string]any{"pattern": "f($A)", "lang": "go", "debugQuery": "pattern"},
			"call_expression\n  identifier f\n  argument_list\n    (\n    MetaVar $A\n    )\n"},
		{map[string]any{"paths": []string{"a.go"}, "debugQuery": "ast"},
			"source_file (0,0)-(3,0)\n  package_clause (0,0)-(0,9)\n    package_identifier (0,8)-(0,9)\n  var_declaration (2,0)-(2,9)\n    var_spec (2,4)-(2,9)\n      name: identifier (2,4)-(2,5)\n      value: expression_list (2,8)-(2,9)\n        int_literal (2,8)-(2,9)\n"},
	} {
		raw, err := ed.ExecuteCommand(context.Background(), CommandAstGrep, tt.arg)
		if err != nil {
			t.Fatal(err)
		}
		var res astgrep.DebugResult
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, res.Text); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tt.arg, diff)
		}
	}
	_, err := ed.ExecuteCommand(context.Background(), CommandAstGrep, map[string]any{"pattern": "x", "debugQuery": "tree"})
	if client.ErrorCode(err) != -32602 || !strings.Contains(err.Error(), "pattern, ast, cst or sexp") {
		t.Errorf("debugQuery tree: error %v; want InvalidParams naming the views", err)
	}
}

// TestNodeAtDeepNesting: a hostile file nested far deeper than any code
// answers the root and the MaxNodeAtChain-1 nodes nearest the cursor, and
// says how many it left out.
func TestNodeAtDeepNesting(t *testing.T) {
	const depth = 5000
	source := "package a\n\nvar x = " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "\n"
	dir := testutil.WriteTree(t, "-- a.go --\n"+source)
	ed := newEditor(t, dir, client.EditorOptions{})
	uri := workspace.PathToURI(filepath.Join(dir, "a.go"))
	res, err := nodeAt(t, ed, map[string]any{"uri": uri, "position": map[string]int{"line": 2, "character": 8 + depth}})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Nodes[len(res.Nodes)-1]
	if len(res.Nodes) != astgrep.MaxNodeAtChain || res.Omitted == 0 || res.Nodes[0].Kind != "source_file" || last.Kind != "int_literal" {
		t.Errorf("%d nodes, %d omitted, first %s, last %s; want %d nodes from source_file to int_literal",
			len(res.Nodes), res.Omitted, res.Nodes[0].Kind, last.Kind, astgrep.MaxNodeAtChain)
	}
}
