package astgrep

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/workspace"
)

// debugTree is a workspace for the file views of Debug.
const debugTree = `
-- a.go --
package p

var x = 1
-- sub/b.py --
print(1)
-- notes.unknownext --
text
`

func debugSnapshot(t *testing.T, docs map[string]*workspace.Document) *workspace.Snapshot {
	t.Helper()
	folder, err := workspace.NewFolder(testutil.WriteTree(t, debugTree), "test")
	if err != nil {
		t.Fatal(err)
	}
	return workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, docs)
}

func TestDebugViews(t *testing.T) {
	snap := debugSnapshot(t, nil)
	tests := []struct {
		name string
		q    Query
		want string
	}{
		{"pattern, smart", Query{Pattern: "let $V = f($$$A)", Lang: "javascript", DebugQuery: "pattern"},
			"lexical_declaration\n  let\n  variable_declarator\n    MetaVar $V\n    =\n    call_expression\n      identifier f\n      arguments\n        (\n        MetaVar $$$A\n        )\n"},
		{"pattern, ast: no anonymous leaves", Query{Pattern: "f($_, 1)", Lang: "javascript", Strictness: "ast", DebugQuery: "pattern"},
			"call_expression\n  identifier f\n  arguments\n    MetaVar $_\n    number 1\n"},
		{"pattern, signature: kinds only", Query{Pattern: "f(1)", Lang: "javascript", Strictness: "signature", DebugQuery: "pattern"},
			"call_expression\n  identifier\n  arguments\n    number\n"},
		{"pattern, template: text only", Query{Pattern: "f(1)", Lang: "javascript", Strictness: "template", DebugQuery: "pattern"},
			"(node)\n  f\n  (node)\n    (\n    1\n    )\n"},
		{"pattern, Go expando shown as $", Query{Pattern: "$X := $$$", Lang: "go", DebugQuery: "pattern"},
			"short_var_declaration\n  MetaVar $X\n  :=\n  MetaVar $$$\n"}, // a metavariable is the outermost node whose text it is

		{"pattern text's cst, as ast-grep parses it", Query{Pattern: "f(x)", Lang: "python", DebugQuery: "cst"},
			"module (0,0)-(0,4)\n  expression_statement (0,0)-(0,4)\n    call (0,0)-(0,4)\n      function: identifier (0,0)-(0,1)\n      arguments: argument_list (0,1)-(0,4)\n        ( (0,1)-(0,2)\n        identifier (0,2)-(0,3)\n        ) (0,3)-(0,4)\n"},
		{"file ast", Query{Scope: workspace.Scope{Paths: []string{"a.go"}}, DebugQuery: "ast"},
			"source_file (0,0)-(3,0)\n  package_clause (0,0)-(0,9)\n    package_identifier (0,8)-(0,9)\n  var_declaration (2,0)-(2,9)\n    var_spec (2,4)-(2,9)\n      name: identifier (2,4)-(2,5)\n      value: expression_list (2,8)-(2,9)\n        int_literal (2,8)-(2,9)\n"},
		{"file sexp", Query{Scope: workspace.Scope{Paths: []string{"sub/b.py"}}, DebugQuery: "sexp"},
			"(module (expression_statement (call function: (identifier) arguments: (argument_list (integer)))))"},
		{"file with lang given", Query{Scope: workspace.Scope{Paths: []string{"notes.unknownext"}}, Lang: "python", DebugQuery: "ast"},
			"module (0,0)-(1,0)\n  expression_statement (0,0)-(0,4)\n    identifier (0,0)-(0,4)\n"},
		{"missing token", Query{Pattern: "def f(:", Lang: "python", DebugQuery: "cst"},
			"module (0,0)-(0,7)\n  function_definition (0,0)-(0,7)\n    def (0,0)-(0,3)\n    name: identifier (0,4)-(0,5)\n    parameters: parameters (0,5)-(0,6)\n      ( (0,5)-(0,6)\n      MISSING ) (0,6)-(0,6)\n    : (0,6)-(0,7)\n    body: block (0,7)-(0,7)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Debug(context.Background(), engine.Env{Snapshot: snap}, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, res.Text); diff != "" {
				t.Errorf("view (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDebugFileSeesTheOverlay: a file's tree is the editor's buffer, not the disk.
func TestDebugFileSeesTheOverlay(t *testing.T) {
	probe := debugSnapshot(t, nil)
	path := probe.Folders[0].Real + "/a.go"
	doc := &workspace.Document{URI: workspace.PathToURI(path), Path: path, Version: 2, Content: []byte("package q\nfunc f() {}\n")}
	snap := workspace.NewSnapshot(probe.Folders, workspace.Settings{}, map[string]*workspace.Document{doc.URI: doc})
	res, err := Debug(context.Background(), engine.Env{Snapshot: snap}, Query{Scope: workspace.Scope{Paths: []string{"a.go"}}, DebugQuery: "ast"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "function_declaration (1,0)-(1,11)") || res.Path != "a.go" || res.Language != "go" {
		t.Errorf("got %+v; want the unsaved buffer's tree", res)
	}
}

func TestDebugErrors(t *testing.T) {
	snap := debugSnapshot(t, nil)
	tests := []struct {
		name string
		q    Query
		want string
	}{
		{"unknown view", Query{Pattern: "f()", Lang: "go", DebugQuery: "tree"}, "use pattern, ast, cst or sexp"},
		{"pattern view without a pattern", Query{Scope: workspace.Scope{Paths: []string{"a.go"}}, DebugQuery: "pattern"}, "give a pattern and lang"},
		{"pattern without lang", Query{Pattern: "f()", DebugQuery: "ast"}, "needs lang"},
		{"unknown lang", Query{Pattern: "f()", Lang: "klingon", DebugQuery: "ast"}, "klingon"},
		{"bad strictness", Query{Pattern: "f()", Lang: "go", Strictness: "loose", DebugQuery: "pattern"}, "unknown strictness"},
		{"pattern that does not compile", Query{Pattern: "$$$A", Lang: "go", DebugQuery: "pattern"}, "multi metavariable"},
		{"no file", Query{DebugQuery: "cst"}, "exactly one file"},
		{"two files", Query{Scope: workspace.Scope{Paths: []string{"a.go", "sub/b.py"}}, DebugQuery: "cst"}, "exactly one file"},
		{"a directory", Query{Scope: workspace.Scope{Paths: []string{"sub"}}, DebugQuery: "cst"}, "not a single file"},
		{"a missing file", Query{Scope: workspace.Scope{Paths: []string{"nope.go"}}, DebugQuery: "cst"}, "not found"},
		{"unknown language", Query{Scope: workspace.Scope{Paths: []string{"notes.unknownext"}}, DebugQuery: "cst"}, "set lang"},
		{"outside the folder", Query{Scope: workspace.Scope{Paths: []string{"../x.go"}}, DebugQuery: "cst"}, "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Debug(context.Background(), engine.Env{Snapshot: snap}, tt.q)
			var input *workspace.InputError
			var pathErr *workspace.PathError
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v; want one mentioning %q", err, tt.want)
			}
			if !errors.As(err, &input) && !errors.As(err, &pathErr) {
				t.Errorf("error %T is no InvalidParams error", err)
			}
		})
	}
}

// TestDebugViewIsCapped: a large file's cst stops at MaxDebugBytes and
// says so, rather than growing to many times the file's size; its sexp
// (tree-sitter's rendering, built whole in C) is refused with the views to
// use instead, as is the sexp of a tree nested deeper than the C side
// should recurse.
func TestDebugViewIsCapped(t *testing.T) {
	snap := workspace.NewSnapshot(nil, workspace.Settings{}, nil)
	large := strings.Repeat("f(1, 2, 3)\n", 40_000) // 440 KB, 440,000 nodes; its cst is about 17 MB
	res, err := Debug(context.Background(), engine.Env{Snapshot: snap}, Query{Pattern: large, Lang: "python", DebugQuery: "cst"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Text) > matcher.MaxDebugBytes+200 || !strings.Contains(res.Text, "cut at") {
		t.Errorf("cst view is %d bytes (cap %d), ends %q", len(res.Text), matcher.MaxDebugBytes, res.Text[max(0, len(res.Text)-80):])
	}
	deep := strings.Repeat("[", 3000) + strings.Repeat("]", 3000) // nested 3000 levels
	for _, source := range []string{large, deep} {
		_, err = Debug(context.Background(), engine.Env{Snapshot: snap}, Query{Pattern: source, Lang: "python", DebugQuery: "sexp"})
		var input *workspace.InputError
		if !errors.As(err, &input) || !strings.Contains(err.Error(), "ask for the ast or cst view") {
			t.Errorf("sexp of %d bytes: error %v; want one pointing to the ast or cst view", len(source), err)
		}
	}
	if res, err := Debug(context.Background(), engine.Env{Snapshot: snap}, Query{Pattern: deep, Lang: "python", DebugQuery: "ast"}); err != nil || !strings.Contains(res.Text, "list (0,1000)-(0,5000)") || !strings.Contains(res.Text, "cut at") {
		t.Errorf("ast of the deep list: %v; want its levels until the cap", err)
	}
}
