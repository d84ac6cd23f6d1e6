package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
)

// TestArgumentFieldsAreExact checks that command argument fields are
// matched exactly: a near miss is refused with the field it may mean and
// the known fields, not silently taken for another.
func TestArgumentFieldsAreExact(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	for _, tt := range []struct {
		command string
		arg     any
		want    string
	}{
		{CommandSearch, map[string]any{"pattern": "A", "ignorecase": true},
			`unknown field "ignorecase" (did you mean ignoreCase?); known fields: pattern, ignoreCase, literal,`},
		{CommandSearch, map[string]any{"Pattern": "a"}, `unknown field "Pattern" (did you mean pattern?)`},
		{CommandSearch, map[string]any{"pattern": "a", "contextBefor": 1}, `unknown field "contextBefor" (did you mean contextBefore?)`},
		{CommandSearch, map[string]any{"pattern": "a", "zzz": 1}, `unknown field "zzz"; known fields: pattern,`},
		{CommandAstGrep, map[string]any{"pattern": "a", "Lang": "go"}, `unknown field "Lang" (did you mean lang?)`},
		{CommandAstGrep, map[string]any{"pattern": "a", "languge": "go"}, `unknown field "languge"; known fields`},
		{CommandSearch, map[string]any{"pattern": 5}, "field pattern of the argument must be a string, not a JSON number"},
		{CommandSearch, map[string]any{"pattern": "a", "paths": "a.go"}, "field paths of the argument must be an array of strings, not a JSON string"},
		{CommandSearch, map[string]any{"pattern": "a", "limit": "3"}, "field limit of the argument must be an integer (in range), not a JSON string"},
		{CommandSearch, map[string]any{"pattern": "a", "literal": 1}, "field literal of the argument must be true or false, not a JSON number"},
		{CommandSearch, "a string", "the argument must be a JSON object, not a JSON string"},
		{CommandSearch, []any{}, "the argument must be a JSON object, not a JSON array"},
	} {
		_, err := ed.ExecuteCommand(context.Background(), tt.command, tt.arg)
		if client.ErrorCode(err) != -32602 || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %v: error %v; want InvalidParams containing %q", tt.command, tt.arg, err, tt.want)
		}
	}
	// The exact names still work.
	if _, err := ed.ExecuteCommand(context.Background(), CommandSearch, map[string]any{"pattern": "PACKAGE", "ignoreCase": true}); err != nil {
		t.Errorf("ignoreCase: %v", err)
	}
}

func TestClosestName(t *testing.T) {
	known := []string{"pattern", "ignoreCase", "contextBefore", "contextAfter", "limit"}
	for _, tt := range []struct{ name, want string }{
		{"ignorecase", "ignoreCase"}, {"IGNORECASE", "ignoreCase"}, {"patern", "pattern"},
		{"contextafter", "contextAfter"}, {"limt", "limit"}, {"lim", "limit"}, {"zzz", ""}, {"", ""},
		{strings.Repeat("x", 10000), ""},
	} {
		if got := closestName(tt.name, known); got != tt.want {
			t.Errorf("closestName(%.20q) = %q; want %q", tt.name, got, tt.want)
		}
	}
}

// TestEveryWalkNamesTheDirectoriesItSkipped: every command that walks the
// workspace names, in its warnings, a directory it could not list (here
// one too deep for the system's paths) rather than leaving its files out
// silently.
func TestEveryWalkNamesTheDirectoriesItSkipped(t *testing.T) {
	dir := testutil.WriteTree(t, scanProject)
	testutil.DeepDir(t, dir, "abc", 1100, 1100) // 4,400 bytes of path
	ed := newEditor(t, dir, client.EditorOptions{})
	for _, c := range []struct {
		command string
		arg     map[string]any
	}{
		{CommandSearch, map[string]any{"pattern": "panic"}},
		{CommandAstGrep, map[string]any{"pattern": "panic($A)"}},
		{CommandOutline, map[string]any{}},
		{CommandXRay, map[string]any{"driver": "\\.go$", "target": "filename", "evaluator": xrayCalls}},
		{CommandXRay, map[string]any{"driver": "panic", "evaluator": xrayCalls}},
		{CommandScan, map[string]any{}},
		{CommandAstEdit, map[string]any{"ops": []map[string]string{{"pattern": "panic($A)", "rewrite": "fail($A)"}}}},
	} {
		raw, err := ed.ExecuteCommand(context.Background(), c.command, c.arg)
		if err != nil {
			t.Fatalf("%s: %v", c.command, err)
		}
		var r struct{ Warnings []string }
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("%s: %v", c.command, err)
		}
		n := 0
		for _, w := range r.Warnings {
			if strings.HasPrefix(w, "skipped the directory abc/abc/") && strings.Contains(w, "file name too long") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s %v: warnings %q; want the deep directory named once", c.command, c.arg, r.Warnings)
		}
	}
}
