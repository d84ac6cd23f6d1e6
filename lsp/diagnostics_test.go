package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/rules"
	"github.com/structls/structls/workspace"
)

// rulesProject is a workspace with an ast-grep project: two Go rules, one
// fixable, one with a url and a labelled relation.
const rulesProject = `
-- sgconfig.yml --
ruleDirs:
  - rules
-- rules/no-println.yml --
id: no-println
language: go
severity: warning
message: use log.Println, not fmt.Println
url: https://example.com/rules/no-println
rule:
  pattern:
    context: func _() { fmt.Println($$$ARGS) }
    selector: call_expression
fix: log.Println($$$ARGS)
-- rules/no-panic.yml --
id: no-panic
language: go
severity: error
message: do not panic with $X
rule:
  pattern:
    context: func _() { panic($X) }
    selector: call_expression
  inside:
    kind: function_declaration
    stopBy: end
labels:
  X:
    style: secondary
    message: the value
-- main.go --
package main

import "fmt"

func main() {
	fmt.Println("hello")
}
`

// awaitDiagnostics waits until the editor holds diagnostics for the URI at
// the given version that satisfy ok, and returns them. The deadline only
// keeps a hang from blocking the run.
func awaitDiagnostics(t *testing.T, ed *client.Editor, uri string, version int32, ok func([]client.Diagnostic) bool) []client.Diagnostic {
	t.Helper()
	var last client.PublishedDiagnostics
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		p, found := ed.Diagnostics(uri)
		if !found {
			continue
		}
		last = p
		if p.Version != nil && *p.Version == version && ok(p.Diagnostics) {
			return p.Diagnostics
		}
	}
	t.Fatalf("no diagnostics for %s version %d as wanted; the last published: %+v", uri, version, last)
	return nil
}

// codes lists the rule ids of diagnostics, sorted.
func codes(diags []client.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Code)
	}
	slices.Sort(out)
	return out
}

func hasCodes(want ...string) func([]client.Diagnostic) bool {
	return func(diags []client.Diagnostic) bool { return slices.Equal(codes(diags), want) }
}

// codeActions asks for the code actions over the range, with an only filter.
func codeActions(t *testing.T, ed *client.Editor, uri string, r workspace.Range, only ...string) []codeActionReply {
	t.Helper()
	params := map[string]any{"textDocument": map[string]any{"uri": uri}, "range": r, "context": map[string]any{"diagnostics": []any{}}}
	if len(only) > 0 {
		params["context"] = map[string]any{"diagnostics": []any{}, "only": only}
	}
	var actions []codeActionReply
	if err := ed.Call(context.Background(), "textDocument/codeAction", params, &actions); err != nil {
		t.Fatal(err)
	}
	return actions
}

// codeActionReply is the part of a code action the tests read.
type codeActionReply struct {
	Title       string
	Kind        string
	IsPreferred bool
	Diagnostics []client.Diagnostic
	Edit        json.RawMessage
}

// applyAction applies an action's edit as the editor does; it returns why
// the editor refused it, or "".
func applyAction(t *testing.T, ed *client.Editor, a codeActionReply) string {
	t.Helper()
	if a.Edit == nil {
		t.Fatalf("action %q has no edit", a.Title)
	}
	reason, err := ed.ApplyWorkspaceEdit(context.Background(), a.Title, a.Edit)
	if err != nil {
		t.Fatal(err)
	}
	return reason
}

func at(line, char int) workspace.Range {
	p := workspace.Position{Line: line, Character: char}
	return workspace.Range{Start: p, End: p}
}

// TestDiagnosticsFlow follows a user: open a file → its diagnostics (rule
// id, url, severity, source, message); type a violation without saving →
// it is flagged; apply the quick fix → a versioned edit, the diagnostic is
// gone; fix all; close → the diagnostics are cleared.
func TestDiagnosticsFlow(t *testing.T) {
	dir := testutil.WriteTree(t, rulesProject)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	text, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	uri, err := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", string(text))
	if err != nil {
		t.Fatal(err)
	}
	diags := awaitDiagnostics(t, ed, uri, 1, hasCodes("no-println"))
	d := diags[0]
	wantRange := workspace.Range{Start: workspace.Position{Line: 5, Character: 1}, End: workspace.Position{Line: 5, Character: 21}}
	if d.Range != wantRange || d.Severity != 2 || d.Source != "structls" || d.Message != "use log.Println, not fmt.Println" ||
		d.CodeDescription == nil || d.CodeDescription.Href != "https://example.com/rules/no-println" {
		t.Errorf("diagnostic %+v; want no-println at %v, warning (2), source structls, the rule's message and url", d, wantRange)
	}

	// Type a violation, unsaved: the disk keeps the old text.
	if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: workspace.Position{Line: 6, Character: 0}, End: workspace.Position{Line: 6, Character: 0}},
		Text: "\tpanic(\"boom\")\n"}); err != nil {
		t.Fatal(err)
	}
	diags = awaitDiagnostics(t, ed, uri, 2, hasCodes("no-panic", "no-println"))
	for _, d := range diags {
		if d.Code != "no-panic" {
			continue
		}
		if d.Severity != 1 || d.Message != `do not panic with "boom"` || len(d.RelatedInformation) != 1 ||
			d.RelatedInformation[0].Message != "the value" || d.RelatedInformation[0].Location.URI != uri {
			t.Errorf("no-panic diagnostic %+v; want an error with the interpolated message and the label as related information", d)
		}
	}

	// The quick fix under the cursor: versioned, and it removes the diagnostic.
	actions := codeActions(t, ed, uri, at(5, 3), "quickfix")
	if len(actions) != 1 || actions[0].Kind != "quickfix" || !actions[0].IsPreferred || len(actions[0].Diagnostics) != 1 {
		t.Fatalf("quick fixes at the fmt.Println call: %+v; want one preferred quickfix for its diagnostic", actions)
	}
	if !strings.Contains(string(actions[0].Edit), `"version":2`) {
		t.Errorf("quick fix edit %s; want a versioned edit of version 2", actions[0].Edit)
	}
	if reason := applyAction(t, ed, actions[0]); reason != "" {
		t.Fatalf("the quick fix was refused: %s", reason)
	}
	if got, _ := ed.BufferText(uri); !strings.Contains(got, `log.Println("hello")`) {
		t.Errorf("buffer after the quick fix:\n%s", got)
	}
	awaitDiagnostics(t, ed, uri, 3, hasCodes("no-panic"))
	if got := codeActions(t, ed, uri, at(6, 2), "quickfix"); len(got) != 0 {
		t.Errorf("quick fixes on an unfixable diagnostic: %+v; want none", got)
	}
	disk, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	if string(disk) != string(text) {
		t.Errorf("the file on disk changed:\n%s", disk)
	}

	// Close: the diagnostics are cleared.
	if err := ed.CloseFile(ctx, uri); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		if p, _ := ed.Diagnostics(uri); p.Version == nil && len(p.Diagnostics) == 0 {
			break
		}
		if time.Now().After(deadline) {
			p, _ := ed.Diagnostics(uri)
			t.Fatalf("diagnostics after close: %+v; want them cleared", p)
		}
	}
}

// TestFixAll checks "Fix all structls issues in this file": one
// source.fixAll.structls action whose edit fixes every fixable finding,
// offered when asked for source.fixAll (as VS Code's fix on save does).
func TestFixAll(t *testing.T) {
	dir := testutil.WriteTree(t, rulesProject)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	text := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n\tfmt.Println(2)\n\tfmt.Println(fmt.Sprint(3))\n}\n"
	uri, err := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", text)
	if err != nil {
		t.Fatal(err)
	}
	awaitDiagnostics(t, ed, uri, 1, hasCodes("no-println", "no-println", "no-println"))
	actions := codeActions(t, ed, uri, at(0, 0), "source.fixAll")
	if len(actions) != 1 || actions[0].Kind != "source.fixAll.structls" || actions[0].Title != "Fix all structls issues in this file" {
		t.Fatalf("actions for source.fixAll: %+v; want the one fix-all action", actions)
	}
	if reason := applyAction(t, ed, actions[0]); reason != "" {
		t.Fatalf("fix all was refused: %s", reason)
	}
	want := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tlog.Println(1)\n\tlog.Println(2)\n\tlog.Println(fmt.Sprint(3))\n}\n"
	if got, _ := ed.BufferText(uri); got != want {
		t.Errorf("buffer after fix all:\n%s\nwant:\n%s", got, want)
	}
	awaitDiagnostics(t, ed, uri, 2, hasCodes())
	if got := codeActions(t, ed, uri, at(0, 0), "source.fixAll"); len(got) != 0 {
		t.Errorf("fix all with nothing to fix: %+v; want no action", got)
	}
}

// TestQuickFixIsVersioned checks that a quick fix computed on one version
// is refused by an editor whose buffer has moved on, never applied to the
// wrong text.
func TestQuickFixIsVersioned(t *testing.T) {
	dir := testutil.WriteTree(t, rulesProject)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	text, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", string(text))
	awaitDiagnostics(t, ed, uri, 1, hasCodes("no-println"))
	actions := codeActions(t, ed, uri, at(5, 3))
	var fix *codeActionReply
	for i := range actions {
		if actions[i].Kind == "quickfix" {
			fix = &actions[i]
		}
	}
	if fix == nil {
		t.Fatalf("actions %+v; want a quickfix among them (no only filter)", actions)
	}
	if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: workspace.Position{Line: 0, Character: 0}, End: workspace.Position{Line: 0, Character: 0}}, Text: "// x\n"}); err != nil {
		t.Fatal(err)
	}
	if reason := applyAction(t, ed, *fix); !strings.Contains(reason, "do not match") {
		t.Errorf("a stale quick fix was not refused for its version (reason %q)", reason)
	}
}

// TestDiagnosticsFollowRuleChanges edits the rules on disk: a watched-file
// event, and separately a save of a rule file, reload the project and
// re-check the open documents.
func TestDiagnosticsFollowRuleChanges(t *testing.T) {
	dir := testutil.WriteTree(t, rulesProject)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	text, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", string(text))
	awaitDiagnostics(t, ed, uri, 1, hasCodes("no-println"))

	rule := filepath.Join(dir, "rules", "no-println.yml")
	old, _ := os.ReadFile(rule)
	if err := os.WriteFile(rule, []byte(strings.Replace(string(old), "severity: warning", "severity: error", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ed.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": workspace.PathToURI(rule), "type": 2}}}); err != nil {
		t.Fatal(err)
	}
	awaitDiagnostics(t, ed, uri, 1, func(d []client.Diagnostic) bool { return len(d) == 1 && d[0].Severity == 1 })

	extra := filepath.Join(dir, "rules", "no-main.yml")
	if err := os.WriteFile(extra, []byte("id: no-main\nlanguage: go\nrule:\n  kind: function_declaration\n  has:\n    field: name\n    regex: ^main$\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ed.Notify(ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": workspace.PathToURI(extra)}}); err != nil {
		t.Fatal(err)
	}
	diags := awaitDiagnostics(t, ed, uri, 1, hasCodes("no-main", "no-println"))
	for _, d := range diags {
		if d.Code == "no-main" && (d.Severity != 4 || d.Message != "no-main") {
			t.Errorf("no-main diagnostic %+v; want a hint (the default severity) whose message is the rule id", d)
		}
	}

	// sgconfig.yml itself now names another rule directory.
	testutil.WriteFiles(t, dir, "-- other/only.yml --\nid: only-rule\nlanguage: go\nrule: {kind: import_declaration}\n-- sgconfig.yml --\nruleDirs: [other]\n")
	if err := ed.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
		{"uri": workspace.PathToURI(filepath.Join(dir, "sgconfig.yml")), "type": 2}}}); err != nil {
		t.Fatal(err)
	}
	awaitDiagnostics(t, ed, uri, 1, hasCodes("only-rule"))
}

// TestBrokenRulesShownOnce checks that a project that does not load is
// reported once, clearly (the file and the field), however many keystrokes
// follow, and that diagnostics resume once it is fixed.
func TestBrokenRulesShownOnce(t *testing.T) {
	dir := testutil.WriteTree(t, rulesProject+"-- rules/bad.yml --\nid: bad\nlanguage: go\nrule:\n  patern: x\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	text, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", string(text))
	awaitDiagnostics(t, ed, uri, 1, func([]client.Diagnostic) bool { return true })
	for i := range 5 {
		if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: workspace.Position{Line: 1}, End: workspace.Position{Line: 1}}, Text: "\n"}); err != nil {
			t.Fatal(err)
		}
		awaitDiagnostics(t, ed, uri, int32(i+2), func([]client.Diagnostic) bool { return true })
	}
	var shown []string
	for _, l := range ed.Logs() {
		if strings.Contains(l, "rules") && strings.Contains(l, "do not load") {
			shown = append(shown, l)
		}
	}
	// One showMessage and one logMessage of the same text.
	if len(shown) != 2 || shown[0] != shown[1] || !strings.Contains(shown[0], "bad.yml") || !strings.Contains(shown[0], "patern") {
		t.Errorf("messages about the broken rules: %q; want the same one message twice (shown and logged), naming bad.yml and the field", shown)
	}
	if err := os.Remove(filepath.Join(dir, "rules", "bad.yml")); err != nil {
		t.Fatal(err)
	}
	if err := ed.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": workspace.PathToURI(filepath.Join(dir, "rules", "bad.yml")), "type": 3}}}); err != nil {
		t.Fatal(err)
	}
	awaitDiagnostics(t, ed, uri, 6, hasCodes("no-println"))
}

// TestDiagnosticsPerFolder checks one project per workspace folder: each
// folder's files get its own rules, found upward from the folder.
func TestDiagnosticsPerFolder(t *testing.T) {
	root := testutil.WriteTree(t, `
-- a/sgconfig.yml --
ruleDirs: [rules]
-- a/rules/r.yml --
id: rule-of-a
language: go
rule: {kind: function_declaration}
-- a/x.go --
package x

func F() {}
-- b/sgconfig.yml --
ruleDirs: [rules]
-- b/rules/r.yml --
id: rule-of-b
language: go
rule: {kind: function_declaration}
-- b/sub/y.go --
package y

func G() {}
`)
	ctx := context.Background()
	ed, wait := StartInProcess(ctx, Options{Version: "test"}, client.EditorOptions{})
	if _, err := ed.Initialize(ctx, filepath.Join(root, "a"), filepath.Join(root, "b", "sub")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ed.Shutdown(ctx); wait(); _ = ed.Close() })
	for file, want := range map[string]string{"a/x.go": "rule-of-a", "b/sub/y.go": "rule-of-b"} {
		path := filepath.Join(root, file)
		text, _ := os.ReadFile(path)
		uri, _ := ed.OpenFile(ctx, path, "go", string(text))
		awaitDiagnostics(t, ed, uri, 1, hasCodes(want))
	}
}

// TestPullDiagnostics checks the pull model for a client that declares it:
// diagnosticProvider is declared (and not for a pushing client), nothing is
// pushed, a pull returns the document's diagnostics with a result id, the
// same id gives "unchanged", a change gives a new report, and a rules
// change asks the client to pull again.
func TestPullDiagnostics(t *testing.T) {
	dir := testutil.WriteTree(t, rulesProject)
	ctx := context.Background()
	ed, wait := StartInProcess(ctx, Options{Version: "test"}, client.EditorOptions{PullDiagnostics: true})
	result, err := ed.Initialize(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ed.Shutdown(ctx); wait(); _ = ed.Close() })
	if !strings.Contains(string(result), `"diagnosticProvider":{"identifier":"structls"`) {
		t.Errorf("initialize result %s; want diagnosticProvider for a pulling client", result)
	}
	text, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", string(text))
	type report struct {
		Kind     string
		ResultID string
		Items    []client.Diagnostic
	}
	pull := func(previous string) report {
		t.Helper()
		params := map[string]any{"textDocument": map[string]any{"uri": uri}}
		if previous != "" {
			params["previousResultId"] = previous
		}
		var r report
		if err := ed.Call(ctx, "textDocument/diagnostic", params, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := pull("")
	if first.Kind != "full" || first.ResultID == "" || !slices.Equal(codes(first.Items), []string{"no-println"}) {
		t.Fatalf("first pull %+v; want a full report with no-println and a result id", first)
	}
	if again := pull(first.ResultID); again.Kind != "unchanged" || again.ResultID != first.ResultID {
		t.Errorf("pull with the same result id: %+v; want unchanged", again)
	}
	if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: workspace.Position{Line: 6}, End: workspace.Position{Line: 6}}, Text: "\tpanic(1)\n"}); err != nil {
		t.Fatal(err)
	}
	changed := pull(first.ResultID)
	if changed.Kind != "full" || changed.ResultID == first.ResultID || !slices.Equal(codes(changed.Items), []string{"no-panic", "no-println"}) {
		t.Errorf("pull after typing: %+v; want a new full report with both rules", changed)
	}
	if err := ed.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": workspace.PathToURI(filepath.Join(dir, "sgconfig.yml")), "type": 2}}}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		if _, refreshes := ed.DiagnosticCounts(); refreshes == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no workspace/diagnostic/refresh after the rules changed")
		}
	}
	if err := ed.CloseFile(ctx, uri); err != nil {
		t.Fatal(err)
	}
	if published, _ := ed.DiagnosticCounts(); published != 0 {
		t.Errorf("%d publishDiagnostics sent to a pulling client; want none", published)
	}

	raw := initializeResult(t, dir)
	var caps struct{ Capabilities map[string]json.RawMessage }
	if err := json.Unmarshal(raw, &caps); err != nil {
		t.Fatal(err)
	}
	if _, declared := caps.Capabilities["diagnosticProvider"]; declared {
		t.Errorf("a pushing client was offered diagnosticProvider: %s", raw)
	}
}

// initializeResult initialises a fresh session of a pushing client on dir
// and returns its InitializeResult.
func initializeResult(t *testing.T, dir string) json.RawMessage {
	t.Helper()
	ctx := context.Background()
	ed, wait := StartInProcess(ctx, Options{Version: "test"}, client.EditorOptions{})
	defer func() { _ = ed.Shutdown(ctx); wait(); _ = ed.Close() }()
	raw, err := ed.Initialize(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestDiagnosticsFollowFolders checks that a document outside every folder
// has no rule diagnostics, and gets its folder's once the folder is added.
func TestDiagnosticsFollowFolders(t *testing.T) {
	first := testutil.WriteTree(t, "-- a.txt --\nx\n")
	second := testutil.WriteTree(t, rulesProject)
	ed := newEditor(t, first, client.EditorOptions{})
	ctx := context.Background()
	path := filepath.Join(second, "main.go")
	text, _ := os.ReadFile(path)
	uri, _ := ed.OpenFile(ctx, path, "go", string(text))
	awaitDiagnostics(t, ed, uri, 1, hasCodes())
	if err := ed.Notify(ctx, "workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []map[string]string{{"uri": workspace.PathToURI(second), "name": "second"}}, "removed": []any{}}}); err != nil {
		t.Fatal(err)
	}
	awaitDiagnostics(t, ed, uri, 1, hasCodes("no-println"))
}

// TestDiagnosticsNeverStale types fast and checks what the editor heard:
// publications in increasing version order only (never an older version
// after a newer one), ending with the diagnostics of the last version.
func TestDiagnosticsNeverStale(t *testing.T) {
	dir := testutil.WriteTree(t, rulesProject)
	var mu sync.Mutex
	var versions []int32
	ed := newEditor(t, dir, client.EditorOptions{OnNotify: func(method string, params json.RawMessage) {
		var p client.PublishedDiagnostics
		if method == "textDocument/publishDiagnostics" && json.Unmarshal(params, &p) == nil && p.Version != nil {
			mu.Lock()
			versions = append(versions, *p.Version)
			mu.Unlock()
		}
	}})
	ctx := context.Background()
	text, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", string(text))
	const keystrokes = 60
	for i := range keystrokes {
		// Each keystroke adds a line "\tpanic(N)"; the last version has them all.
		line := fmt.Sprintf("\tpanic(%d)\n", i)
		if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: workspace.Position{Line: 6}, End: workspace.Position{Line: 6}}, Text: line}); err != nil {
			t.Fatal(err)
		}
		if i%10 == 9 {
			time.Sleep(2 * diagnosticsDelay) // a pause: the next keystroke is checked at once
		}
	}
	diags := awaitDiagnostics(t, ed, uri, keystrokes+1, func(d []client.Diagnostic) bool { return len(d) == keystrokes+1 })
	if got := codes(diags); got[0] != "no-panic" || got[len(got)-1] != "no-println" {
		t.Errorf("final diagnostics %v; want %d no-panic and a no-println", got, keystrokes)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.IsSorted(versions) || len(slices.Compact(slices.Clone(versions))) != len(versions) {
		t.Errorf("published versions %v; want strictly increasing", versions)
	}
	t.Logf("%d keystrokes, %d publications", keystrokes, len(versions))
}

// TestDiagnosticsBadInput checks requests that make no sense: a clear
// error or an empty answer, never a crash; and a buffer over maxFileSize is
// not checked, as searches skip it.
func TestDiagnosticsBadInput(t *testing.T) {
	dir := testutil.WriteTree(t, rulesProject)
	ed := newEditor(t, dir, client.EditorOptions{PullDiagnostics: true, InitOptions: json.RawMessage(`{"structls": {"maxFileSize": 200}}`)})
	ctx := context.Background()
	big := "package main\n\nimport \"fmt\"\n\nfunc main() {\n" + strings.Repeat("\tfmt.Println(\"padding the file past the limit\")\n", 10) + "}\n"
	bigURI, _ := ed.OpenFile(ctx, filepath.Join(dir, "big.go"), "go", big)
	text, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", string(text))
	for _, tc := range []struct {
		name, method string
		params       any
		wantCode     int    // the JSON-RPC error code, 0 for none
		want         string // in the result
	}{
		{"pull without params", "textDocument/diagnostic", nil, -32602, ""},
		{"pull a document that is not open", "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": workspace.PathToURI(filepath.Join(dir, "other.go"))}}, 0, `"items":[]`},
		{"pull a buffer over maxFileSize", "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": bigURI}}, 0, `"items":[]`},
		{"pull a non-file URI", "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": "untitled:Untitled-1"}}, 0, `"items":[]`},
		{"actions far past the end", "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": at(9999, 9999), "context": map[string]any{"diagnostics": []any{}, "only": []string{"quickfix"}}}, 0, `[]`},
		{"actions with a reversed range", "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": workspace.Range{Start: workspace.Position{Line: 6}, End: workspace.Position{Line: 5}}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"quickfix"}}}, 0, `[]`},
		{"actions without a context (read as no filter)", "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": at(5, 3)}, 0, `"kind":"quickfix"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var result json.RawMessage
			err := ed.Call(ctx, tc.method, tc.params, &result)
			if code := client.ErrorCode(err); code != tc.wantCode {
				t.Fatalf("error %v (code %d); want code %d", err, code, tc.wantCode)
			}
			if tc.wantCode == 0 && !strings.Contains(string(result), tc.want) {
				t.Errorf("result %s; want it to hold %s", result, tc.want)
			}
		})
	}
}

// TestRulesAboveTheFolderAreWatched opens a folder below its ast-grep
// project: the project's files, outside the folder, are registered for
// watching one by one, and a change to one of them refreshes the
// diagnostics.
func TestRulesAboveTheFolderAreWatched(t *testing.T) {
	root := testutil.WriteTree(t, rulesProject+"-- sub/x.go --\npackage sub\n\nimport \"fmt\"\n\nfunc F() { fmt.Println(1) }\n")
	sub := filepath.Join(root, "sub")
	ed := newEditor(t, sub, client.EditorOptions{DynamicWatch: true})
	ctx := context.Background()
	path := filepath.Join(sub, "x.go")
	text, _ := os.ReadFile(path)
	uri, _ := ed.OpenFile(ctx, path, "go", string(text))
	awaitDiagnostics(t, ed, uri, 1, hasCodes("no-println"))
	rule := filepath.Join(root, "rules", "no-println.yml")
	waitFor(t, "a watcher for "+rule, func() bool {
		regs := ed.Registrations()
		return len(regs) == 1 && strings.Contains(string(regs[0].RegisterOptions),
			fmt.Sprintf(`{"baseUri":%q,"pattern":"no-println.yml"}`, workspace.PathToURI(filepath.Dir(rule))))
	})
	if err := os.Remove(rule); err != nil {
		t.Fatal(err)
	}
	if err := ed.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": workspace.PathToURI(rule), "type": 3}}}); err != nil {
		t.Fatal(err)
	}
	awaitDiagnostics(t, ed, uri, 1, hasCodes())
}

// TestQuickFixesOfAFixList checks a rule with a list of fixes: every fix is
// a quick fix, titled as the rule says, the first preferred; fix all takes
// the first. Its labels map puts the diagnostic on the primary label.
func TestQuickFixesOfAFixList(t *testing.T) {
	dir := testutil.WriteTree(t, `
-- sgconfig.yml --
ruleDirs: [rules]
-- rules/sleep.yml --
id: no-sleep
language: go
severity: warning
message: avoid sleeping for $D
rule:
  pattern:
    context: func _() { time.Sleep($D) }
    selector: call_expression
labels:
  D:
    style: primary
    message: the duration
fix:
  - title: Remove the sleep
    template: ""
  - title: Sleep for a second
    template: time.Sleep(time.Second)
-- main.go --
package main

func main() {
	time.Sleep(10)
}
`)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	text, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", string(text))
	diags := awaitDiagnostics(t, ed, uri, 1, hasCodes("no-sleep"))
	wantRange := workspace.Range{Start: workspace.Position{Line: 3, Character: 12}, End: workspace.Position{Line: 3, Character: 14}}
	if diags[0].Range != wantRange || diags[0].Message != "avoid sleeping for 10" {
		t.Errorf("diagnostic %+v; want it on the primary label $D at %v, with the message interpolated", diags[0], wantRange)
	}
	var got []string
	for _, a := range codeActions(t, ed, uri, at(3, 13), "quickfix") {
		got = append(got, fmt.Sprintf("%s preferred=%v", a.Title, a.IsPreferred))
	}
	want := []string{"Remove the sleep preferred=true", "Sleep for a second preferred=false"}
	if !slices.Equal(got, want) {
		t.Errorf("quick fixes %q; want %q", got, want)
	}
	all := codeActions(t, ed, uri, at(0, 0), "source.fixAll.structls")
	if len(all) != 1 {
		t.Fatalf("fix all: %+v; want one action", all)
	}
	if reason := applyAction(t, ed, all[0]); reason != "" {
		t.Fatal(reason)
	}
	if got, _ := ed.BufferText(uri); got != "package main\n\nfunc main() {\n\t\n}\n" {
		t.Errorf("buffer after fix all: %q; want the sleep removed (the first fix)", got)
	}
}

// TestDiagnosticSeverity checks the mapping of ast-grep's severities.
func TestDiagnosticSeverity(t *testing.T) {
	for _, tc := range []struct {
		severity rules.Severity
		want     protocol.DiagnosticSeverity
		shown    bool
	}{
		{rules.SeverityError, protocol.DiagnosticSeverityError, true},
		{rules.SeverityWarning, protocol.DiagnosticSeverityWarning, true},
		{rules.SeverityInfo, protocol.DiagnosticSeverityInformation, true},
		{rules.SeverityHint, protocol.DiagnosticSeverityHint, true},
		{rules.SeverityOff, 0, false},
		{"", 0, false},
	} {
		if got, shown := diagnosticSeverity(tc.severity); got != tc.want || shown != tc.shown {
			t.Errorf("diagnosticSeverity(%q) = %d, %v; want %d, %v", tc.severity, got, shown, tc.want, tc.shown)
		}
	}
}

// TestRuleWarningsLoggedOnce checks that what the rules engine warns about
// at load (here a Go pattern read as a type conversion) reaches the output
// panel once, however many keystrokes follow.
func TestRuleWarningsLoggedOnce(t *testing.T) {
	dir := testutil.WriteTree(t, rulesProject+"-- rules/ambiguous.yml --\nid: ambiguous\nlanguage: go\nrule:\n  pattern: fmt.Sprint($A)\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	text, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", string(text))
	awaitDiagnostics(t, ed, uri, 1, func([]client.Diagnostic) bool { return true })
	for i := range 3 {
		if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: workspace.Position{Line: 1}, End: workspace.Position{Line: 1}}, Text: "\n"}); err != nil {
			t.Fatal(err)
		}
		awaitDiagnostics(t, ed, uri, int32(i+2), func([]client.Diagnostic) bool { return true })
	}
	var warned []string
	for _, l := range ed.Logs() {
		if strings.Contains(l, "ast-grep project of") {
			warned = append(warned, l)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "ambiguous.yml") {
		t.Errorf("warnings logged: %q; want one naming ambiguous.yml", warned)
	}
}

// TestPullWhileTyping pulls diagnostics while the document changes under
// them: every answer is a full report, or ServerCancelled asking the client
// to pull again (retriggerRequest) when the document changed during the
// check; never another error. The last pull, after the typing, has the
// findings of the last version.
func TestPullWhileTyping(t *testing.T) {
	dir := testutil.WriteTree(t, rulesProject)
	ed := newEditor(t, dir, client.EditorOptions{PullDiagnostics: true})
	ctx := context.Background()
	text := "package main\n\nimport \"fmt\"\n\nfunc main() {\n" + strings.Repeat("\tfmt.Println(1)\n", 2000) + "}\n"
	uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", text)
	pull := func() (int, error) {
		var r struct{ Items []client.Diagnostic }
		err := ed.Call(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}}, &r)
		return len(r.Items), err
	}
	typed := make(chan error, 1)
	const keystrokes = 30
	go func() {
		for range keystrokes {
			if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: workspace.Position{Line: 5}, End: workspace.Position{Line: 5}}, Text: "\tpanic(1)\n"}); err != nil {
				typed <- err
				return
			}
			time.Sleep(time.Millisecond)
		}
		typed <- nil
	}()
	cancelled, full := 0, 0
	for done := false; !done; {
		select {
		case err := <-typed:
			if err != nil {
				t.Fatal(err)
			}
			done = true
		default:
		}
		_, err := pull()
		var rpcErr *jsonrpc2.Error
		switch {
		case err == nil:
			full++
		case errors.As(err, &rpcErr) && rpcErr.Code == ServerCancelled && string(rpcErr.Data) == `{"retriggerRequest":true}`:
			cancelled++
		default:
			t.Fatalf("pull while typing: %v; want a report or ServerCancelled with retriggerRequest", err)
		}
	}
	if n, err := pull(); err != nil || n != 2000+keystrokes {
		t.Errorf("pull after typing: %d diagnostics, %v; want %d", n, err, 2000+keystrokes)
	}
	t.Logf("%d full reports, %d ServerCancelled", full, cancelled)
}
