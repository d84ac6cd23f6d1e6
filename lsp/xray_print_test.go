package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
)

// TestXRayPrintIsLogged: an evaluator's print is no error; it reaches the
// client as window/logMessage notifications, each before the reply, and
// never the reply itself.
func TestXRayPrintIsLogged(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc f() {}\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	raw, err := ed.ExecuteCommand(context.Background(), CommandXRay, map[string]any{"driver": "func",
		"evaluator": "print(\"seen\", file_path, len(match_positions))\nreturn {\"matches\": [{\"line_number\": 3}]}"})
	if err != nil {
		t.Fatal(err)
	}
	var r xrayReply
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.EvaluationErrors) > 0 || len(r.Matches) != 1 {
		t.Fatalf("errors %+v, %d matches; want none, 1", r.EvaluationErrors, len(r.Matches))
	}
	if logs := ed.Logs(); !slices.Contains(logs, XRayPrintPrefix+"a.go: seen a.go 1") {
		t.Errorf("log messages %q; want the print", logs)
	}
}
