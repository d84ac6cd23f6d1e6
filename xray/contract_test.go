package xray

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// contractFiles is a small workspace: two Go files the driver "func" hits.
const contractFiles = `
-- a.go --
package a

func A() {}
-- b.go --
package b

func B() {}
func C() {}
`

// evaluate runs one evaluator over contractFiles with limits. The per-file
// time limit is a generous minute: these tests are about the other
// budgets, which must trip first even on a loaded machine under -race.
func evaluate(t *testing.T, evaluator string, limits Limits) *Result {
	t.Helper()
	dir := testutil.WriteTree(t, contractFiles)
	minute := 60_000
	q := Query{Driver: "func", Evaluator: evaluator, FileTimeoutMs: &minute}
	res, err := search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q, limits, nil)
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	return res
}

// TestReturnContract checks code-indexer's checks on what an evaluator
// returns, with their messages, for every file (the run completes).
func TestReturnContract(t *testing.T) {
	for _, tc := range []struct {
		name, evaluator string
		errorType       ErrorType
		message         string // the exact message; "" when no error
		matches         int
	}{
		{"not a dict", "return True", InvalidEvaluatorReturn,
			`Evaluator must return a dict {"matches": [...], "value": ...}, got 'bool'. Note: bool return (legacy contract) is no longer accepted.`, 0},
		{"no return", "x = 1", InvalidEvaluatorReturn,
			`Evaluator must return a dict {"matches": [...], "value": ...}, got 'NoneType'. Note: bool return (legacy contract) is no longer accepted.`, 0},
		{"missing matches", `return {"value": 1}`, InvalidEvaluatorReturn,
			`Evaluator dict missing required 'matches' key. Return: {"matches": [...], "value": ...}`, 0},
		{"matches not a list", `return {"matches": {}}`, InvalidEvaluatorReturn, `'matches' must be a list, got 'dict'`, 0},
		{"entry without line_number drops the file", `return {"matches": [{"line_number": 1}, {"x": 1, "y": 2}]}`, InvalidEvaluatorReturn,
			`each match must contain 'line_number'; got keys: ["x", "y"]`, 0},
		{"line_number not an int", `return {"matches": [{"line_number": [1]}]}`, InvalidEvaluatorReturn, `line_number must be an int, got [1]`, 0},
		{"non-dict entries skipped", `return {"matches": [1, "x", None, {"line_number": 3}]}`, "", "", 2},
		{"line_number as Python's int()", `return {"matches": [{"line_number": "3"}, {"line_number": 2.9}]}`, "", "", 4},
		{"skip wins over everything", `return {"skip": True, "matches": "not even a list", "value": 1}`, "", "", 0},
		{"skip False is no skip", `return {"skip": False, "matches": [{"line_number": 1}]}`, "", "", 2},
		{"runtime error", "x = {}\nreturn x['missing']", EvaluatorCrash, `line 2, column 9: key "missing" not in dict`, 0},
		{"fail()", `fail("no luck")`, EvaluatorCrash, `line 1, column 5: fail: no luck`, 0},
		{"too many matches", `return {"matches": [{"line_number": 1} for i in range(100001)]}`, InvalidEvaluatorReturn,
			"the evaluator returned 100001 matches for this file; at most 100000 are kept per file: narrow the driver or the evaluator", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := evaluate(t, tc.evaluator, DefaultLimits)
			if res.FilesEvaluated != 2 {
				t.Errorf("filesEvaluated = %d; want 2 (the run completes)", res.FilesEvaluated)
			}
			if len(res.Matches) != tc.matches {
				t.Errorf("got %d matches; want %d: %+v", len(res.Matches), tc.matches, res.Matches)
			}
			if tc.errorType == "" {
				if len(res.EvaluationErrors) > 0 {
					t.Errorf("unexpected errors: %+v", res.EvaluationErrors)
				}
				return
			}
			if len(res.EvaluationErrors) != 2 {
				t.Fatalf("got errors %+v; want one per file", res.EvaluationErrors)
			}
			for _, e := range res.EvaluationErrors {
				if e.ErrorType != tc.errorType || e.ErrorMessage != tc.message {
					t.Errorf("%s: got %s %q; want %s %q", e.Path, e.ErrorType, e.ErrorMessage, tc.errorType, tc.message)
				}
			}
		})
	}
}

// TestMatchEnrichment checks the fields, lineContent fill-in, fileMetadata
// and the keys the server owns.
func TestMatchEnrichment(t *testing.T) {
	res := evaluate(t, `
if file_path != "b.go":
    return {"matches": [], "value": None}
return {
    "matches": [
        {"line_number": 3, "file_path": "ignored", "language": "ignored", "extra": [1, "two", None, {"k": (True, 1.5)}]},
        {"line_number": 4, "line_content": "mine"},
        {"line_number": 99},
    ],
    "value": {"n": 3},
    "file_role": "test",
}`, DefaultLimits)
	if len(res.EvaluationErrors) > 0 {
		t.Fatalf("errors: %+v", res.EvaluationErrors)
	}
	if len(res.Matches) != 3 {
		t.Fatalf("matches: %+v", res.Matches)
	}
	first := res.Matches[0]
	if first.Path != "b.go" || first.Language != "go" || first.LineContent != "func B() {}" || first.Range == nil || first.Range.Start.Line != 2 {
		t.Errorf("first match: %+v", first)
	}
	if got := jsonText(first.Fields); got != `{"extra":[1,"two",null,{"k":[true,1.5]}]}` {
		t.Errorf("fields = %s", got)
	}
	if m := res.Matches[1]; m.LineContent != "mine" {
		t.Errorf("line_content given: %+v", m)
	}
	if m := res.Matches[2]; m.LineContent != "" || m.Range != nil {
		t.Errorf("line out of range: %+v", m)
	}
	want := []FileMetadata{{Path: "b.go", URI: res.Matches[0].URI, Value: map[string]any{"n": int64(3)}, FileRole: "test"}}
	if jsonText(res.FileMetadata) != jsonText(want) {
		t.Errorf("fileMetadata = %s; want %s", jsonText(res.FileMetadata), jsonText(want))
	}
}

// TestCompileErrors checks that bad evaluator code is refused before any
// file is evaluated, with the line and column in the code as written.
func TestCompileErrors(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	for _, tc := range []struct{ name, evaluator, want string }{
		{"syntax error", "x = 1\ny = (", "evaluator has a syntax error at line 2, column"},
		{"unknown global", "return nodes", "evaluator does not compile: line 1, column 8: undefined: nodes"},
		{"load", `load("x.star", "y")`, "load is not available"},
		{"NUL byte", "return\x00", "NUL byte"},
		{"class", "class X:\n    pass", "syntax error at line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "func", Evaluator: tc.evaluator})
			var inputErr *workspace.InputError
			if !errors.As(err, &inputErr) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v; want an InputError containing %q", err, tc.want)
			}
		})
	}
}

// TestInvalidQueries checks the query's own checks.
func TestInvalidQueries(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	zero, neg, one, big := 0, -1, 1, 1<<30
	yes := true
	for name, q := range map[string]Query{
		"empty driver":            {},
		"bad target":              {Driver: "x", Target: "path"},
		"bad regex":               {Driver: "a(?=b)"},
		"bad filename regex":      {Driver: "(", Target: "filename"},
		"maxFiles zero":           {Driver: "x", MaxFiles: &zero},
		"timeout negative":        {Driver: "x", TimeoutSeconds: &neg},
		"file timeout too large":  {Driver: "x", FileTimeoutMs: &big},
		"context lines":           {Driver: "x", ContextLines: 11},
		"multiline on filenames":  {Driver: "x", Target: "filename", Multiline: &yes},
		"bad format":              {Driver: "x", Format: "xml"},
		"debug nodes without ast": {Driver: "x", MaxDebugNodes: &one},
		"too many debug nodes":    {Driver: "x", IncludeAst: true, MaxDebugNodes: &big},
		"path outside":            {Driver: "x", Scope: workspace.Scope{Paths: []string{"../"}}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q)
			var inputErr *workspace.InputError
			var pathErr *workspace.PathError
			if !errors.As(err, &inputErr) && !errors.As(err, &pathErr) {
				t.Errorf("got %v; want an InputError or PathError", err)
			}
		})
	}
}

// TestFileErrors: a file without a grammar, a binary file and a file over
// maxFileSize are each an evaluation error of their own; the others match.
func TestFileErrors(t *testing.T) {
	dir := testutil.WriteTree(t, "-- ok.go --\npackage ok\n-- notes.xyz --\n# notes\n-- bin.go --\npackage b\x00\n-- big.go --\npackage big // "+strings.Repeat("x", 200)+"\n")
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{MaxFileSize: 100}, nil)
	res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Driver: ".", Target: "filename", Evaluator: `return {"matches": [{"line_number": 1}]}`})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range res.EvaluationErrors {
		got = append(got, e.Path+" "+string(e.ErrorType)+": "+e.ErrorMessage)
	}
	want := []string{
		"big.go ReadError: big.go (216 bytes): file is larger than maxFileSize (raise the maxFileSize setting to evaluate it)",
		"bin.go ReadError: it holds a NUL byte, so it is taken as binary and not parsed",
		"notes.xyz UnsupportedLanguage: No grammar for extension '.xyz' (structls infers the language from the file name; structls languages lists them)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Matches) != 1 || res.Matches[0].Path != "ok.go" || res.FilesEvaluated != 4 {
		t.Errorf("matches %+v, %d evaluated; want ok.go's, 4", res.Matches, res.FilesEvaluated)
	}
}

// TestLineRangePaths: a content driver takes structls.search's line ranges
// (file:FROM-TO): match_positions hold the hits in the range only.
func TestLineRangePaths(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "func", Scope: workspace.Scope{Paths: []string{"b.go:4-4"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || res.Matches[0].LineNumber != 4 {
		t.Errorf("matches %+v; want line 4 of b.go alone", res.Matches)
	}
	_, err = Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "b", Target: "filename", Scope: workspace.Scope{Paths: []string{"b.go:4-4"}}})
	if err == nil {
		t.Errorf("a line range with target filename was accepted")
	}
}

// TestMissingPathWarnings: a missing path among others is a warning, with
// either target.
func TestMissingPathWarnings(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	for _, target := range []string{"content", "filename"} {
		res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "a", Target: target, Scope: workspace.Scope{Paths: []string{"a.go", "nope.go"}}})
		if err != nil {
			t.Fatal(err)
		}
		want := "path not found: nope.go (paths are relative to the first workspace folder)"
		if len(res.Warnings) != 1 || res.Warnings[0] != want {
			t.Errorf("%s: warnings %q; want [%q]", target, res.Warnings, want)
		}
	}
}
