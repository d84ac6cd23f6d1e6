// Command apply measures a structural rewrite through the server, as a
// client drives it: structls.astEdit (the preview, with its WorkspaceEdit),
// then structls.applyEdit, timed apart. With -editor the in-process editor
// declares workspace.applyEdit and applies the edit to its buffers (opening
// each file, as VS Code does, and telling the server with didOpen and
// didChange); without it the client is a bare agent and the server writes the
// files itself (each atomically, after the stale check). bench/edit.sh runs it
// on a copy of the tree.
//
// usage: go run ./bench/apply [-editor] ROOT LANG PATTERN REWRITE
//
// It prints one line: files, replacements, preview seconds, apply seconds.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
)

func main() {
	editor := flag.Bool("editor", false, "the client applies the edit (workspace/applyEdit) instead of the server writing it")
	flag.Parse()
	if flag.NArg() != 4 {
		fmt.Fprintln(os.Stderr, "usage: apply [-editor] ROOT LANG PATTERN REWRITE")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), flag.Arg(2), flag.Arg(3), *editor); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func run(root, language, pattern, rewriteText string, editor bool) error {
	ctx := context.Background()
	mode := client.ApplyEditsUnsupported
	if editor {
		mode = client.ApplyEditsAccept
	}
	// One query: no parse cache to fill, as the CLI runs.
	ed, wait := lsp.StartInProcess(ctx, lsp.Options{}, client.EditorOptions{ApplyEdits: mode,
		InitOptions: json.RawMessage(`{"structls": {"parseCacheMB": 0, "confirmEdits": "never"}}`)})
	if _, err := ed.Initialize(ctx, root); err != nil {
		return err
	}
	defer func() { _ = ed.Shutdown(ctx); wait() }()
	start := time.Now()
	raw, err := ed.ExecuteCommand(ctx, lsp.CommandAstEdit, map[string]any{"lang": language, "maxFiles": 100000,
		"ops": []map[string]string{{"pattern": pattern, "rewrite": rewriteText}}})
	if err != nil {
		return fmt.Errorf("preview: %w", err)
	}
	previewSecs := time.Since(start).Seconds()
	var preview struct {
		ID                              string
		FilesTouched, TotalReplacements int
	}
	if err := json.Unmarshal(raw, &preview); err != nil {
		return err
	}
	start = time.Now()
	raw, err = ed.ExecuteCommand(ctx, lsp.CommandApplyEdit, map[string]string{"id": preview.ID})
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	applySecs := time.Since(start).Seconds()
	var applied struct{ Applied bool }
	if err := json.Unmarshal(raw, &applied); err != nil || !applied.Applied {
		return fmt.Errorf("apply: not applied: %s", raw)
	}
	fmt.Printf("%d\t%d\t%.3f\t%.3f\n", preview.FilesTouched, preview.TotalReplacements, previewSecs, applySecs)
	return nil
}
