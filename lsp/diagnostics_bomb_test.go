package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
)

// TestServerSurvivesYAMLBombs: a workspace holding a hostile rule file
// (an alias bomb, 100,000 nested brackets, a file past the size limit)
// killed the server soon after start. Now the folder's rules do not load,
// the user is told which file and why, and the server goes on answering.
func TestServerSurvivesYAMLBombs(t *testing.T) {
	for name, b := range testutil.YAMLBombs() {
		t.Run(name, func(t *testing.T) {
			dir := testutil.WriteTree(t, rulesProject)
			testutil.WriteFiles(t, dir, "-- rules/bomb.yml --\n"+b.Text)
			ed := newEditor(t, dir, client.EditorOptions{})
			ctx := context.Background()
			uri, err := ed.OpenFile(ctx, filepath.Join(dir, "main.go"), "go", "package main\n\nfunc main() {}\n")
			if err != nil {
				t.Fatal(err)
			}
			awaitDiagnostics(t, ed, uri, 1, hasCodes())
			var shown bool
			for deadline := time.Now().Add(30 * time.Second); !shown && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				for _, l := range ed.Logs() {
					shown = shown || strings.Contains(l, "do not load") && strings.Contains(l, b.Want)
				}
			}
			if !shown {
				t.Errorf("no message naming %q; messages: %.1000q", b.Want, ed.Logs())
			}
			if _, err := ed.ExecuteCommand(ctx, CommandSearch, map[string]any{"pattern": "main"}); err != nil {
				t.Errorf("the server does not answer after the bomb: %v", err)
			}
		})
	}
}
