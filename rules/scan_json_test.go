package rules

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/workspace"
)

// TestScanResultJSON: Result.AppendJSON writes the bytes encoding/json
// writes: for strings that encoding/json escapes (<, >, &, U+2028, control
// characters, invalid UTF-8), every optional field, metadata of every
// shape, and for a real scan with metadata.
func TestScanResultJSON(t *testing.T) {
	odd := "a<b>&c\u2028d\x01e\xffé\"\\\t\n"
	r := &Result{
		Diagnostics: []Diagnostic{
			{Path: "p<1>.go", URI: "file:///p%3C1%3E.go", Language: "go", RuleID: "r&1", Severity: SeverityError, Message: odd, Note: odd, URL: "https://x/?a=1&b=2",
				Range: workspace.Range{Start: workspace.Position{Line: 1, Character: 2}, End: workspace.Position{Line: 3, Character: 4}}, ByteRange: workspace.ByteRange{Start: 5, End: 9},
				Text: odd, Labels: []DiagnosticLabel{{Style: "primary", Message: odd}, {Style: "secondary"}},
				Fix:      &DiagnosticFix{Text: odd, ByteRange: workspace.ByteRange{Start: 1, End: 2}},
				Metadata: map[string]any{"z": 1.5, "a": []any{"x<y", int64(3), nil, true}, "m": map[string]any{"k": "v&w"}, "big": 1e21}},
			{Path: "q.go", FixError: odd},
		},
		FilesScanned: 7, ErrorCount: 1, RuleErrors: []RuleError{{File: "r.yml", Line: 1, Column: 2, Field: "rule", Message: odd, Suggests: []workspace.Setting{{Field: "maxFileSize", Value: "<2 MB>"}}}},
		Warnings: []string{odd}, EditID: "e1", FixCount: 2, UnfixedErrorCount: 3, FixErrorCount: 4, Text: odd,
	}
	empty := &Result{Diagnostics: []Diagnostic{}, RuleErrors: []RuleError{}, Warnings: []string{}}
	config, err := filepath.Abs("testdata/ruleset/sgconfig.yml")
	if err != nil {
		t.Fatal(err)
	}
	folder, err := workspace.NewFolder(filepath.Join(runtime.GOROOT(), "src", "net", "http", "internal"), "")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	scanned, err := Scan(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Config: config, IncludeMetadata: true, Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	// A field added to these types must be written by AppendJSON too.
	for typ, fields := range map[reflect.Type]int{reflect.TypeFor[Result](): 10, reflect.TypeFor[Diagnostic](): 15, reflect.TypeFor[DiagnosticLabel](): 4, reflect.TypeFor[DiagnosticFix](): 3} {
		exported := 0
		for f := range typ.Fields() {
			if f.IsExported() {
				exported++
			}
		}
		if exported != fields {
			t.Errorf("%v has %d exported fields, AppendJSON writes %d: write the new ones in scan_json.go and set them above", typ, exported, fields)
		}
	}
	for name, r := range map[string]*Result{"odd": r, "empty": empty, "scan": scanned} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.AppendJSON([]byte("prefix")); string(got) != "prefix"+string(want) {
			t.Errorf("%s: AppendJSON differs from encoding/json:\n%s", name, cmp.Diff("prefix"+string(want), string(got)))
		}
	}
}
