package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// TestIgnoredKeysWarned checks that a rule project with keys ast-grep
// ignores (a typo `nthchild` and `stopby` inside `has`) loads and runs, as
// with ast-grep, and that the editor says so: a Warning diagnostic on each
// key while the rule file is open, and one window/showMessage for the
// project however many keystrokes follow.
func TestIgnoredKeysWarned(t *testing.T) {
	dir := testutil.WriteTree(t, `
-- sgconfig.yml --
ruleDirs: [rules]
-- rules/call-with-arg.yml --
id: call-with-arg
language: go
rule:
  kind: call_expression
  has:
    kind: argument_list
    nthchild: 1
    stopby: end
-- main.go --
package main

func main() { println(1) }
`)
	var mu sync.Mutex
	var shown []string
	ed := newEditor(t, dir, client.EditorOptions{OnNotify: func(method string, params json.RawMessage) {
		if method == "window/showMessage" {
			mu.Lock()
			shown = append(shown, string(params))
			mu.Unlock()
		}
	}})
	ctx := context.Background()
	text, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	uri, _ := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", string(text))
	awaitDiagnostics(t, ed, uri, 1, hasCodes("call-with-arg"))
	for i := range 3 {
		if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: workspace.Position{Line: 1}, End: workspace.Position{Line: 1}}, Text: "\n"}); err != nil {
			t.Fatal(err)
		}
		awaitDiagnostics(t, ed, uri, int32(i+2), hasCodes("call-with-arg"))
	}

	rulePath := filepath.Join(dir, "rules", "call-with-arg.yml")
	ruleText, _ := os.ReadFile(rulePath)
	ruleURI, _ := ed.OpenFile(ctx, rulePath, "yaml", string(ruleText))
	diags := awaitDiagnostics(t, ed, ruleURI, 1, func(d []client.Diagnostic) bool { return len(d) == 2 })
	want := []struct {
		line, char int
		says       string
	}{{6, 4, "did you mean `nthChild`?"}, {7, 4, "did you mean `stopBy`?"}}
	for i, w := range want {
		d := diags[i]
		if d.Severity != 2 || d.Range.Start.Line != w.line || d.Range.Start.Character != w.char || !strings.Contains(d.Message, w.says) {
			t.Errorf("diagnostic %d on the rule file: %+v; want a Warning at %d:%d saying %q", i, d, w.line, w.char, w.says)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(shown) != 1 || !strings.Contains(shown[0], "2 unknown keys") || !strings.Contains(shown[0], "nthchild") {
		t.Errorf("window/showMessage sent %d times: %q; want once, counting the 2 ignored keys", len(shown), shown)
	}
}
