package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
)

// scanReply is the part of a structls.scan result the tests read.
type scanReply struct {
	Diagnostics []struct {
		Path, RuleID, Severity, Message, Text string
		Range                                 struct{ Start, End struct{ Line, Character int } }
		Fix                                   *struct{ Text string }
	}
	FilesScanned int
	ErrorCount   int
	RuleErrors   []struct {
		File, Field, Message string
		Line                 int
	}
	EditID string
}

func scan(t *testing.T, ed *client.Editor, q map[string]any) scanReply {
	t.Helper()
	raw, err := ed.ExecuteCommand(context.Background(), CommandScan, q)
	if err != nil {
		t.Fatal(err)
	}
	var r scanReply
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

const scanProject = `-- sgconfig.yml --
ruleDirs: [rules]
-- rules/no-panic.yml --
id: no-panic
language: go
rule: {pattern: panic($A)}
message: do not panic with $A
severity: error
fix: fail($A)
-- a.go --
package a

func f() { panic(x); ok() }
-- b.go --
package b
`

// TestScanCommand runs structls.scan through the protocol: the folder's
// sgconfig.yml rules by default, inline rules when given, over the
// editor's unsaved buffers; positions in the negotiated encoding.
func TestScanCommand(t *testing.T) {
	dir := testutil.WriteTree(t, scanProject)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	if _, err := ed.OpenFile(ctx, filepath.Join(dir, "b.go"), "go", "package b\n/* é */ func g() { panic(z) }\n"); err != nil {
		t.Fatal(err)
	}
	r := scan(t, ed, map[string]any{})
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.Path+":"+d.RuleID+":"+d.Severity+":"+d.Message+":"+d.Fix.Text)
	}
	want := []string{"a.go:no-panic:error:do not panic with x:fail(x)", "b.go:no-panic:error:do not panic with z:fail(z)"}
	if !slices.Equal(got, want) || r.ErrorCount != 2 || r.FilesScanned != 2 {
		t.Logf("rule errors: %+v", r.RuleErrors)
		t.Errorf("got %q (%d errors, %d files); want %q", got, r.ErrorCount, r.FilesScanned, want)
	}
	if len(r.Diagnostics) == 2 && (r.Diagnostics[1].Range.Start.Line != 1 || r.Diagnostics[1].Range.Start.Character != 19) {
		t.Errorf("b.go diagnostic at %+v, want line 1 character 19 (UTF-16)", r.Diagnostics[1].Range)
	}
	inline := scan(t, ed, map[string]any{"rules": "id: ok\nlanguage: go\nrule: {pattern: ok()}\n"})
	if len(inline.Diagnostics) != 1 || inline.Diagnostics[0].RuleID != "ok" {
		t.Errorf("inline rules: got %+v", inline.Diagnostics)
	}
	if !slices.Contains(Commands, CommandScan) {
		t.Errorf("Commands %v lacks %s", Commands, CommandScan)
	}
}

// TestScanRuleErrors: a bad rule comes back as a ruleError naming the
// file, line and field; nothing is scanned.
func TestScanRuleErrors(t *testing.T) {
	dir := testutil.WriteTree(t, scanProject)
	ed := newEditor(t, dir, client.EditorOptions{})
	r := scan(t, ed, map[string]any{"rules": "id: x\nlanguage: go\nrule:\n  pattern: a\n  insde: {kind: call_expression}\n"})
	if len(r.RuleErrors) != 1 || r.RuleErrors[0].Line != 5 || r.RuleErrors[0].Field != "rule.insde" ||
		!strings.Contains(r.RuleErrors[0].Message, "expected one of pattern") || len(r.Diagnostics) != 0 {
		t.Errorf("got %+v", r)
	}
}

// TestScanFixApply: with fix: true the fixes become a preview that
// structls.applyEdit writes.
func TestScanFixApply(t *testing.T) {
	dir := testutil.WriteTree(t, scanProject)
	ed := newEditor(t, dir, client.EditorOptions{ApplyEdits: client.ApplyEditsUnsupported})
	r := scan(t, ed, map[string]any{"fix": true})
	if r.EditID == "" {
		t.Fatalf("no editId in %+v", r)
	}
	if _, err := ed.ExecuteCommand(context.Background(), CommandApplyEdit, map[string]string{"id": r.EditID}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "a.go"))
	if string(got) != "package a\n\nfunc f() { fail(x); ok() }\n" {
		t.Errorf("a.go after apply: %q", got)
	}
}

// TestScanTooLargeFile: a file over maxFileSize is named in warnings, not
// silently skipped.
func TestScanTooLargeFile(t *testing.T) {
	dir := testutil.WriteTree(t, scanProject+"-- big.go --\npackage big\n\nfunc g() { panic(1) }\n"+strings.Repeat("// padding\n", 200))
	ed := newEditor(t, dir, client.EditorOptions{Settings: json.RawMessage(`{"maxFileSize": 1000}`)})
	raw, err := ed.ExecuteCommand(context.Background(), CommandScan, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Warnings []string }
	json.Unmarshal(raw, &r)
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "big.go was not scanned") || !strings.Contains(r.Warnings[0], "maxFileSize") {
		t.Errorf("warnings %q", r.Warnings)
	}
}

// TestScanConfigStaysInTheWorkspace: an editor's or agent's config names
// an sgconfig.yml inside the workspace folders; one outside (absolute,
// climbing out, through a symbolic link) is refused without being read,
// and a named pipe is refused at once instead of blocking the server. The
// command line's server (ConfigAnywhere) may read one anywhere.
func TestScanConfigStaysInTheWorkspace(t *testing.T) {
	outside := testutil.WriteTree(t, "-- sgconfig.yml --\nruleDirs: [rules]\n-- rules/r.yml --\nid: secret-rule\nlanguage: go\nrule: {pattern: panic($A)}\n")
	dir := testutil.WriteTree(t, scanProject+"-- sub/sgconfig.yml --\nruleDirs: [../rules]\n")
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yml"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ed := newEditor(t, dir, client.EditorOptions{})
	for config, want := range map[string]string{
		filepath.Join(outside, "sgconfig.yml"):           "outside the workspace",
		"../" + filepath.Base(outside) + "/sgconfig.yml": "outside the workspace",
		"link/sgconfig.yml":                              "outside the workspace",
		"/etc/passwd":                                    "outside the workspace",
		"nothere.yml":                                    "not found",
		"sub":                                            "is not a file",
		"fifo.yml":                                       "named pipe",
	} {
		raw, err := ed.ExecuteCommand(ctx, CommandScan, map[string]any{"config": config})
		if err == nil {
			var r struct{ RuleErrors []struct{ Message string } }
			json.Unmarshal(raw, &r)
			if len(r.RuleErrors) == 1 && strings.Contains(r.RuleErrors[0].Message, want) {
				continue // the config was opened, found wanting, and not read
			}
			t.Errorf("config %s: %s; want an error saying %q", config, raw, want)
			continue
		}
		if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "secret-rule") || strings.Contains(err.Error(), "root:") {
			t.Errorf("config %s: %v; want %q, and nothing of the file", config, err, want)
		}
	}
	raw, err := ed.ExecuteCommand(ctx, CommandScan, map[string]any{"config": "sub/sgconfig.yml"})
	if err != nil || !strings.Contains(string(raw), `"ruleId":"no-panic"`) {
		t.Errorf("a config inside the workspace: %v %s", err, raw)
	}

	cli, wait := StartInProcess(ctx, Options{Version: "test", ConfigAnywhere: true}, client.EditorOptions{})
	defer func() { cli.Shutdown(ctx); wait(); cli.Close() }()
	if _, err := cli.Initialize(ctx, dir); err != nil {
		t.Fatal(err)
	}
	raw, err = cli.ExecuteCommand(ctx, CommandScan, map[string]any{"config": filepath.Join(outside, "sgconfig.yml")})
	if err != nil || !strings.Contains(string(raw), `"ruleId":"secret-rule"`) {
		t.Errorf("the command line's config outside the workspace: %v %s", err, raw)
	}
}
