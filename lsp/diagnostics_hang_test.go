package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
)

// TestRecursiveRuleInServer: with a document open, a rule recursing
// through inside/has with matches held a core forever and published
// nothing. Now its evaluation ends: the document gets a diagnostic naming
// the rule, the other rule's diagnostics, and the server answers requests.
func TestRecursiveRuleInServer(t *testing.T) {
	dir := testutil.WriteTree(t, `
-- sgconfig.yml --
ruleDirs: [rules]
-- rules/rec.yml --
id: rec
language: go
utils:
  up:
    any:
      - kind: comment
      - inside: {matches: up, stopBy: end}
      - has: {matches: up, stopBy: end}
rule: {kind: int_literal, matches: up}
-- rules/ints.yml --
id: ints
language: go
rule: {kind: int_literal}
`)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	uri, err := ed.OpenFile(ctx, filepath.Join(dir, "a.go"), "go", "package a\n\nfunc f() {\n\tx := 1\n\tif x > 0 {\n\t\tprintln(x)\n\t}\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	diags := awaitDiagnostics(t, ed, uri, 1, hasCodes("ints", "ints", "rec"))
	for _, d := range diags {
		if d.Code == "rec" && (d.Severity != 1 || !strings.Contains(d.Message, "stopped evaluating rule rec")) {
			t.Errorf("rec diagnostic %+v; want an error saying the rule was stopped", d)
		}
	}
	if _, err := ed.ExecuteCommand(ctx, CommandSearch, map[string]any{"pattern": "println"}); err != nil {
		t.Errorf("the server does not answer: %v", err)
	}
}
