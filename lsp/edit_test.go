package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// editTree is a workspace with two Go files the rewrite below changes.
const editTree = `-- a.go --
package a

func f() {
	println("a")
}
-- b.go --
package a

func g() {
	println("b")
	println("c")
}
`

// printRewrite replaces println calls by fmt.Println.
var printRewrite = map[string]any{"ops": []map[string]any{{"pattern": "println($A)", "rewrite": "fmt.Println($A)"}}}

// editPreview is the part of an astEdit result the tests read.
type editPreview struct {
	ID    string
	Files []struct {
		Path, URI    string
		Version      *int32
		Replacements []struct {
			Range         workspace.Range
			Before, After string
		}
	}
	TotalReplacements, FilesTouched int
	ParseErrors, Warnings           []json.RawMessage
	Edit                            json.RawMessage
	Fingerprint                     string
}

func preview(t *testing.T, ed *client.Editor, arg map[string]any) *editPreview {
	t.Helper()
	raw, err := ed.ExecuteCommand(context.Background(), CommandAstEdit, arg)
	if err != nil {
		t.Fatal(err)
	}
	var p editPreview
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

type applyResult struct {
	Applied                         bool
	FailureReason                   string
	FilesChanged, TotalReplacements int
}

func apply(ed *client.Editor, id string) (*applyResult, error) {
	raw, err := ed.ExecuteCommand(context.Background(), CommandApplyEdit, map[string]any{"id": id})
	if err != nil {
		return nil, err
	}
	var r applyResult
	return &r, json.Unmarshal(raw, &r)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAstEditPreviewThenApplyThroughEditor(t *testing.T) {
	dir := testutil.WriteTree(t, editTree)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	uri, err := ed.OpenFile(ctx, filepath.Join(dir, "b.go"), "go", readFile(t, filepath.Join(dir, "b.go")))
	if err != nil {
		t.Fatal(err)
	}
	p := preview(t, ed, printRewrite)
	if p.TotalReplacements != 3 || p.FilesTouched != 2 || p.ParseErrors == nil || p.Warnings == nil {
		t.Fatalf("preview %+v; want 3 replacements in 2 files, list fields as arrays", p)
	}
	for _, f := range p.Files {
		if (f.URI == uri) != (f.Version != nil) {
			t.Errorf("%s: version %v; want the open document's version, null for a closed file", f.Path, f.Version)
		}
	}
	if !strings.Contains(string(p.Edit), `"needsConfirmation":true`) || !strings.Contains(string(p.Edit), `"version":1`) {
		t.Errorf("edit %s; want versioned documentChanges with a confirmation annotation (two files)", p.Edit)
	}
	if got := readFile(t, filepath.Join(dir, "a.go")); strings.Contains(got, "fmt.") {
		t.Fatal("the preview wrote a.go")
	}
	r, err := apply(ed, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Applied || r.FilesChanged != 2 || r.TotalReplacements != 3 {
		t.Fatalf("apply %+v; want applied, 2 files, 3 replacements", r)
	}
	if text, _ := ed.BufferText(uri); !strings.Contains(text, `fmt.Println("b")`) || !strings.Contains(text, `fmt.Println("c")`) {
		t.Errorf("buffer b.go after apply:\n%s", text)
	}
	aURI := workspace.PathToURI(filepath.Join(dir, "a.go"))
	if text, _ := ed.BufferText(aURI); !strings.Contains(text, `fmt.Println("a")`) {
		t.Errorf("a.go (opened by the editor to apply the edit):\n%s", text)
	}
	if got := readFile(t, filepath.Join(dir, "a.go")); strings.Contains(got, "fmt.") {
		t.Error("applying through the editor wrote a.go on disk; it must stay untouched until saved")
	}
	if reqs := ed.EditRequests(); len(reqs) != 1 || reqs[0].Label != "structls: 3 replacements in 2 files" {
		t.Errorf("applyEdit requests %+v; want one, labelled", reqs)
	}
	if _, err := apply(ed, p.ID); err == nil || !strings.Contains(err.Error(), "already applied") {
		t.Errorf("second apply: %v; want it refused as already applied", err)
	}
}

func TestAstEditRefusesStalePreview(t *testing.T) {
	ctx := context.Background()
	t.Run("buffer changed", func(t *testing.T) {
		dir := testutil.WriteTree(t, editTree)
		ed := newEditor(t, dir, client.EditorOptions{})
		uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "b.go"), "go", readFile(t, filepath.Join(dir, "b.go")))
		p := preview(t, ed, printRewrite)
		if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{}, Text: "// edited\n"}); err != nil {
			t.Fatal(err)
		}
		_, err := apply(ed, p.ID)
		if client.ErrorCode(err) != int(ContentModified) || !strings.Contains(err.Error(), "b.go") || !strings.Contains(err.Error(), "preview") {
			t.Fatalf("apply after didChange: %v; want ContentModified naming b.go and saying to preview again", err)
		}
		if len(ed.EditRequests()) != 0 {
			t.Error("a stale edit was sent to the editor")
		}
		if _, again := apply(ed, p.ID); client.ErrorCode(again) != int(ContentModified) {
			t.Errorf("second apply of the stale preview: %v; want the same refusal", again)
		}
		if got := readFile(t, filepath.Join(dir, "a.go")); strings.Contains(got, "fmt.") {
			t.Error("a stale apply wrote a.go")
		}
	})
	t.Run("closed file changed on disk", func(t *testing.T) {
		dir := testutil.WriteTree(t, editTree)
		ed := newEditor(t, dir, client.EditorOptions{ApplyEdits: client.ApplyEditsUnsupported})
		p := preview(t, ed, printRewrite)
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc f() { println(1) }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := apply(ed, p.ID)
		if client.ErrorCode(err) != int(ContentModified) || !strings.Contains(err.Error(), "a.go") {
			t.Fatalf("apply after a disk change: %v; want ContentModified naming a.go", err)
		}
		if got := readFile(t, filepath.Join(dir, "b.go")); strings.Contains(got, "fmt.") {
			t.Error("a stale apply wrote b.go")
		}
	})
	t.Run("editor rejects a mismatched version", func(t *testing.T) {
		dir := testutil.WriteTree(t, editTree)
		ed := newEditor(t, dir, client.EditorOptions{})
		uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "b.go"), "go", readFile(t, filepath.Join(dir, "b.go")))
		p := preview(t, ed, printRewrite)
		// The client refuses an edit whose version is not its buffer's: the
		// preview's edit, replayed after a change, must be refused.
		if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{}, Text: "\n"}); err != nil {
			t.Fatal(err)
		}
		reason, err := ed.ApplyWorkspaceEdit(ctx, "", p.Edit)
		if err != nil {
			t.Fatal(err)
		}
		if reason == "" || !strings.Contains(reason, "versions") {
			t.Fatalf("replayed stale edit: applied, or refused for %q; want refused for its version", reason)
		}
	})
}

func TestAstEditDeclinedKeepsPreview(t *testing.T) {
	for _, mode := range []client.ApplyEditMode{client.ApplyEditsDecline, client.ApplyEditsFail} {
		dir := testutil.WriteTree(t, editTree)
		ed := newEditor(t, dir, client.EditorOptions{ApplyEdits: mode})
		p := preview(t, ed, printRewrite)
		r, err := apply(ed, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Applied || r.FailureReason == "" {
			t.Fatalf("mode %d: %+v; want not applied, with the reason", mode, r)
		}
		// Still pending: a second try reaches the editor again.
		if _, err := apply(ed, p.ID); err != nil {
			t.Fatalf("mode %d: the declined preview was not kept: %v", mode, err)
		}
		if n := len(ed.EditRequests()); n != 2 {
			t.Errorf("mode %d: %d applyEdit requests; want 2", mode, n)
		}
		if got := readFile(t, filepath.Join(dir, "a.go")); strings.Contains(got, "fmt.") {
			t.Errorf("mode %d: a declined edit wrote a.go", mode)
		}
	}
}

func TestAstEditServerWritesForClientsWithoutApplyEdit(t *testing.T) {
	dir := testutil.WriteTree(t, editTree)
	ed := newEditor(t, dir, client.EditorOptions{ApplyEdits: client.ApplyEditsUnsupported})
	p := preview(t, ed, printRewrite)
	r, err := apply(ed, p.ID)
	if err != nil || !r.Applied {
		t.Fatalf("apply: %+v, %v", r, err)
	}
	if got := readFile(t, filepath.Join(dir, "b.go")); got != "package a\n\nfunc g() {\n\tfmt.Println(\"b\")\n\tfmt.Println(\"c\")\n}\n" {
		t.Errorf("b.go written:\n%s", got)
	}
	if len(ed.EditRequests()) != 0 {
		t.Error("the server sent workspace/applyEdit to a client that did not declare it")
	}
}

func TestAstEditDiscardAndBadInput(t *testing.T) {
	dir := testutil.WriteTree(t, editTree)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	p := preview(t, ed, printRewrite)
	if empty := preview(t, ed, map[string]any{"ops": []map[string]any{{"pattern": "nosuch($A)", "rewrite": "x"}}}); empty.ID != "" || empty.TotalReplacements != 0 {
		t.Errorf("a preview with nothing to apply: id %q, %d replacements; want no id", empty.ID, empty.TotalReplacements)
	}
	if _, err := ed.ExecuteCommand(ctx, CommandDiscardEdit, map[string]any{"id": p.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := apply(ed, p.ID); err == nil || !strings.Contains(err.Error(), "discarded") {
		t.Errorf("apply after discard: %v; want refused as discarded", err)
	}
	for _, tt := range []struct {
		cmd  string
		arg  map[string]any
		want string
	}{
		{CommandAstEdit, map[string]any{"ops": []map[string]any{{"pattern": "", "rewrite": "x"}}}, "ops[0].pattern"},
		{CommandAstEdit, map[string]any{"ops": []map[string]any{{"pattern": "f($A)", "rewrite": "x"}, {"pattern": "f($A)", "rewrite": "y"}}}, "ops[1].pattern"},
		{CommandAstEdit, map[string]any{"ops": []map[string]any{{"pattern": "f($A)", "rewrite": "x"}}, "maxfiles": 3}, "maxFiles"},
		{CommandApplyEdit, map[string]any{"id": "edit-nope"}, "preview the edit first"},
		{CommandDiscardEdit, map[string]any{"id": "edit-nope"}, "preview the edit first"},
		{CommandAstEdit, map[string]any{"ops": []map[string]any{{"pattern": "f($A)", "rewrite": strings.Repeat("$A", 1<<19+1)}}}, "at most 1 MiB"},
		{CommandAstGrep, map[string]any{"pattern": "f(" + strings.Repeat("a,", 1<<19) + ")"}, "over the 1 MiB"},
		{CommandSearch, map[string]any{"pattern": strings.Repeat("a", 1<<20+1)}, "over the 1 MiB"},
	} {
		_, err := ed.ExecuteCommand(ctx, tt.cmd, tt.arg)
		if client.ErrorCode(err) != -32602 || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %v: %v; want InvalidParams mentioning %q", tt.cmd, tt.arg, err, tt.want)
		}
	}
}

func TestAstEditCodeActions(t *testing.T) {
	ctx := context.Background()
	for _, resolve := range []bool{true, false} {
		dir := testutil.WriteTree(t, editTree)
		ed := newEditor(t, dir, client.EditorOptions{ResolveActions: resolve})
		uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "b.go"), "go", readFile(t, filepath.Join(dir, "b.go")))
		p := preview(t, ed, printRewrite)
		var actions []struct {
			Title   string          `json:"title"`
			Kind    string          `json:"kind"`
			Data    json.RawMessage `json:"data,omitempty"`
			Edit    json.RawMessage `json:"edit,omitempty"`
			Command *struct {
				Command   string
				Arguments []json.RawMessage
			} `json:"command,omitempty"`
		}
		// The cursor on the second println of b.go (line 4).
		err := ed.Call(ctx, "textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": uri},
			"range":        workspace.Range{Start: workspace.Position{Line: 4, Character: 2}, End: workspace.Position{Line: 4, Character: 2}},
			"context":      map[string]any{"diagnostics": []any{}},
		}, &actions)
		if err != nil {
			t.Fatal(err)
		}
		if len(actions) != 2 || actions[0].Title != "Apply structls rewrite: 3 replacements in 2 files" ||
			actions[1].Title != "Apply this replacement only" || actions[0].Kind != "refactor.rewrite" {
			t.Fatalf("resolve=%v: actions %+v; want the whole preview and the replacement under the cursor", resolve, actions)
		}
		if !resolve {
			if actions[0].Command == nil || actions[0].Command.Command != CommandApplyEdit || !strings.Contains(string(actions[1].Edit), `fmt.Println(\"c\")`) {
				t.Fatalf("no resolve support: %+v; want a command for the whole preview and an inline edit for one replacement", actions)
			}
			continue
		}
		if actions[0].Edit != nil || actions[0].Data == nil {
			t.Fatalf("actions carry an edit before resolve: %+v", actions[0])
		}
		var resolved struct{ Edit json.RawMessage }
		if err := ed.Call(ctx, "codeAction/resolve", actions[1], &resolved); err != nil {
			t.Fatal(err)
		}
		if e := string(resolved.Edit); !strings.Contains(e, `fmt.Println(\"c\")`) || strings.Contains(e, `fmt.Println(\"b\")`) {
			t.Fatalf("resolved single replacement: %s", e)
		}
		// After a change, the action is no longer offered, and resolving the old one is refused.
		if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{}, Text: "\n"}); err != nil {
			t.Fatal(err)
		}
		if err := ed.Call(ctx, "codeAction/resolve", actions[0], &resolved); client.ErrorCode(err) != int(ContentModified) {
			t.Errorf("resolve after a change: %v; want ContentModified", err)
		}
		_ = p
	}
}

func TestAstEditConfirmEditsSetting(t *testing.T) {
	oneFile := map[string]any{"ops": []map[string]any{{"pattern": "println($A)", "rewrite": "fmt.Println($A)"}}, "paths": []string{"a.go"}}
	for _, tt := range []struct {
		setting string
		arg     map[string]any
		confirm bool
	}{
		{"", printRewrite, true},
		{"", oneFile, false},
		{"always", oneFile, true},
		{"never", printRewrite, false},
		{"multiFile", printRewrite, true},
	} {
		dir := testutil.WriteTree(t, editTree)
		settings := json.RawMessage(`{}`)
		if tt.setting != "" {
			settings = json.RawMessage(`{"confirmEdits": "` + tt.setting + `"}`)
		}
		ed := newEditor(t, dir, client.EditorOptions{Settings: settings})
		p := preview(t, ed, tt.arg)
		if got := strings.Contains(string(p.Edit), `"needsConfirmation":true`); got != tt.confirm {
			t.Errorf("confirmEdits %q, %d files: needsConfirmation %v; want %v\n%s", tt.setting, p.FilesTouched, got, tt.confirm, p.Edit)
		}
	}
}

// TestAstEditByteOrderMarkThroughEditor: a closed file starting with a byte
// order mark is opened by the editor without it (as VS Code does), and the
// edit's ranges, counted after the mark, land on the right characters.
func TestAstEditByteOrderMarkThroughEditor(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\n\ufeffpackage a; func f() { println(\"a\") }\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	p := preview(t, ed, printRewrite)
	if r, err := apply(ed, p.ID); err != nil || !r.Applied {
		t.Fatalf("apply: %+v, %v", r, err)
	}
	text, _ := ed.BufferText(workspace.PathToURI(filepath.Join(dir, "a.go")))
	if want := "package a; func f() { fmt.Println(\"a\") }\n"; text != want {
		t.Errorf("buffer after the edit:\n%q\nwant\n%q", text, want)
	}
}

// TestAstEditTextOnlyAndFingerprint: textOnly sends the preview text with
// neither the files nor the WorkspaceEdit (a large edit's new text is not
// sent at all), and every preview carries the server's fingerprint of its
// plan: the same for the same plan, another when a file's text changed
// even where the replacements did not.
func TestAstEditTextOnlyAndFingerprint(t *testing.T) {
	dir := testutil.WriteTree(t, editTree)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	textOnly := map[string]any{"ops": printRewrite["ops"], "format": "text", "textOnly": true}
	raw, err := ed.ExecuteCommand(ctx, CommandAstEdit, textOnly)
	if err != nil {
		t.Fatal(err)
	}
	var reply map[string]json.RawMessage
	if err := json.Unmarshal(raw, &reply); err != nil {
		t.Fatal(err)
	}
	if string(reply["files"]) != "[]" || reply["edit"] != nil || !strings.Contains(string(reply["text"]), "fmt.Println") ||
		string(reply["totalReplacements"]) != "3" {
		t.Errorf("textOnly reply %s; want files [], no edit, the text and the totals", raw)
	}
	var first struct{ Fingerprint string }
	if err := json.Unmarshal(raw, &first); err != nil || len(first.Fingerprint) != 20 {
		t.Fatalf("fingerprint %q (%v); want 20 hex digits", first.Fingerprint, err)
	}
	fingerprint := func() string {
		t.Helper()
		p := preview(t, ed, printRewrite)
		_, _ = ed.ExecuteCommand(ctx, CommandDiscardEdit, map[string]any{"id": p.ID})
		return p.Fingerprint
	}
	if got := fingerprint(); got != first.Fingerprint {
		t.Errorf("the same plan as JSON has fingerprint %s; want %s as in the text", got, first.Fingerprint)
	}
	// A comment added to a.go moves no replacement's text but changes the
	// file the plan was computed on.
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(readFile(t, filepath.Join(dir, "a.go"))+"// later\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := fingerprint(); got == first.Fingerprint {
		t.Errorf("a.go changed and the fingerprint stayed %s", got)
	}
	delete(textOnly, "format")
	if _, err := ed.ExecuteCommand(ctx, CommandAstEdit, textOnly); err == nil || !strings.Contains(err.Error(), `textOnly needs "format": "text"`) {
		t.Errorf("textOnly without format text: %v; want refused, naming the field", err)
	}
}
