package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/xray"
)

// TestXRayCLI checks structls xray's exit codes (0 matches, 1 none, 2 a
// refused query or an evaluation that failed in every file) and outputs.
func TestXRayCLI(t *testing.T) {
	dir := testutil.WriteTree(t, `
-- a.go --
package a

func f() { g(); h() }
-- notes.txt --
func in a text file
-- calls.star --
calls = node.descendants_of_type("call_expression")
return {"matches": [{"line_number": c.start_point[0] + 1, "call": c.text} for c in calls], "value": {"calls": len(calls)}}
`)
	star := filepath.Join(dir, "calls.star")
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		stdout   string // a part of stdout
		stderr   string // a part of stderr
	}{
		{"evaluator file", []string{"-e", "func", "--eval", star, "-g", "*.go"}, exitFound,
			"# a.go\n3|func f() { g(); h() }\n  call=\"g()\"\n3|func f() { g(); h() }\n  call=\"h()\"\n", ""},
		{"default evaluator echoes hits", []string{"-e", "func"}, exitFound,
			"notes.txt: UnsupportedLanguage: No grammar for extension '.txt'", ""},
		{"no matches", []string{"-e", "nothing here"}, exitNotFound, "0 matches; 0 of 0 candidate files evaluated", ""},
		{"evaluation failed in every file", []string{"-e", "func", "--eval-code", "return 1"}, exitError, "InvalidEvaluatorReturn", "failed in every file evaluated (2 files)"},
		{"filename target", []string{"-e", `\.go$`, "--target", "filename", "--eval-code", `return {"matches": [{"line_number": 1}]}`}, exitFound, "1|package a", ""},
		{"bad evaluator", []string{"-e", "func", "--eval-code", "return x"}, exitError, "", "undefined: x"},
		{"both evaluators", []string{"-e", "func", "--eval", star, "--eval-code", "x"}, exitError, "", "not both"},
		{"no driver", []string{"--eval", star}, exitError, "", "needs a driver regex"},
		{"max files", []string{"-e", "func", "--max-files", "1"}, exitFound, "stopped at maxFiles (partial)", ""},
		{"dump-ast", []string{"--dump-ast", filepath.Join(dir, "a.go"), "--max-nodes", "4"}, exitFound,
			"# a.go\n1|package a\n  ast:\n    source_file `package a func f() { g(); h() }`\n      package_clause `package a`\n        \"package\"\n        …\n      function_declaration `func f() { g(); h() }`\n        …\n\n", ""},
		{"dump-ast outside the root", []string{"--dump-ast", filepath.Join(dir, "..", "x.go")}, exitError, "", "outside the workspace root"},
		{"dump-ast without a grammar", []string{"--dump-ast", filepath.Join(dir, "notes.txt")}, exitError, "UnsupportedLanguage", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"xray", "--root", dir}, tc.args...), nil, &stdout, &stderr)
			if code != tc.wantCode {
				t.Fatalf("exit %d; want %d (stdout %q, stderr %q)", code, tc.wantCode, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stdout %q, stderr %q; want them to hold %q and %q", stdout.String(), stderr.String(), tc.stdout, tc.stderr)
			}
		})
	}
	t.Run("json", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"xray", "--root", dir, "-e", "func", "--eval", star, "--json", "a.go"}, nil, &stdout, &stderr); code != exitFound {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var res struct {
			Matches      []struct{ Fields map[string]any }
			FileMetadata []struct{ Value map[string]any }
		}
		if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) != 2 || res.Matches[1].Fields["call"] != "h()" || res.FileMetadata[0].Value["calls"] != 2.0 {
			t.Errorf("got %s", stdout.String())
		}
		if strings.Contains(stdout.String(), `"text"`) {
			t.Errorf("--json printed the text rendering too")
		}
	})
}

// TestXrayStreamsTheResultExactly: `structls xray` prints its matches as
// the server streams them (several batches here), and what it prints is
// exactly the unstreamed reply: with --json its bytes, else its text
// (then the command that continues a page that stopped at its cap).
func TestXrayStreamsTheResultExactly(t *testing.T) {
	var archive strings.Builder
	for i := range 12 {
		fmt.Fprintf(&archive, "-- d%d/f%02d.go --\npackage p\n\nfunc g() { f(%d) }\n", i%3, i, i)
	}
	archive.WriteString("-- bad.go --\npackage p\n")
	dir := testutil.WriteTree(t, archive.String())
	ctx := context.Background()
	s, err := startSession(ctx, dir, client.EditorOptions{}, lsp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close(ctx)
	evaluator := `
if file_path == "bad.go":
    return 1
return {"matches": [{"line_number": 1 + i % 4, "s": "<&>"} for i in range(200)], "value": file_path}`
	for _, driver := range []string{"package", "nothing"} {
		for _, asJSON := range []bool{true, false} {
			format, args := "text", []string{"xray", "--root", dir, "-e", driver, "--eval-code", evaluator}
			if asJSON {
				format, args = "", append(args, "--json")
			}
			var want struct {
				Text     string `json:"text"`
				NextSkip *int   `json:"nextSkip"`
			}
			raw, err := s.execute(ctx, lsp.CommandXRay, xray.Query{Driver: driver, Evaluator: evaluator, Format: format}, &want)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := run(args, nil, &stdout, &stderr)
			wantOut := want.Text
			if want.NextSkip != nil { // the text ends with the command that continues it
				wantOut += fmt.Sprintf("For the rest run: structls xray --skip %d --root %s -e %s --eval-code '%s'\n", *want.NextSkip, dir, driver, evaluator)
			}
			if asJSON {
				wantOut = string(raw) + "\n"
			}
			if stdout.String() != wantOut {
				t.Errorf("%v: printed\n%.600s\nthe unstreamed reply is\n%.600s", args[3:5], stdout.String(), wantOut)
			}
			if wantCode := map[string]int{"package": exitFound, "nothing": exitNotFound}[driver]; code != wantCode {
				t.Errorf("%v: exit %d; want %d", args[3:5], code, wantCode)
			}
		}
	}
}

// TestXRayPrint: what an evaluator prints goes to stderr, never stdout.
func TestXRayPrint(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc f() {}\n")
	var stdout, stderr bytes.Buffer
	code := run([]string{"xray", "--root", dir, "-e", "func", "--eval-code", "print(\"seen\", file_path)\nreturn {\"matches\": [{\"line_number\": 3}]}"}, nil, &stdout, &stderr)
	if code != exitFound || strings.Contains(stdout.String(), "seen") || stderr.String() != "structls: xray print: a.go: seen a.go\n" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0, the match, and the print on stderr", code, stdout.String(), stderr.String())
	}
}

// TestXRayFailuresAreNotEmptyResults: an evaluator that fails in every file
// exits 2, not 1 (the code of "nothing found"), and lists its error once
// with the number of files, then a summary with the errors by type; when
// only some files fail, the others' matches stand and the errors are
// grouped all the same (issue 23, point 4).
func TestXRayFailuresAreNotEmptyResults(t *testing.T) {
	var archive strings.Builder
	for i := range 25 {
		fmt.Fprintf(&archive, "-- f%02d.go --\npackage p\n\n// TODO %d\n", i, i)
	}
	dir := testutil.WriteTree(t, archive.String())
	message := `Evaluator must return a dict {"matches": [...], "value": ...}, got 'NoneType'.`
	t.Run("every file", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		code := run([]string{"xray", "--root", dir, "-e", "TODO", "--eval-code", "print(node)"}, nil, &stdout, &stderr)
		out := stdout.String()
		if code != exitError || strings.Count(out, message) != 1 ||
			!strings.Contains(out, "InvalidEvaluatorReturn in 25 files (f00.go, f01.go, f02.go, …): "+message) ||
			!strings.HasSuffix(out, "\n0 matches; 25 of 25 candidate files evaluated; 25 evaluation errors (25 InvalidEvaluatorReturn)\n") ||
			!strings.Contains(stderr.String(), "the evaluation failed in every file evaluated (25 files)") {
			t.Errorf("exit %d, stdout\n%s\nstderr %.300s\nwant exit 2, the error once with its count, a summary by type, and why on stderr", code, out, stderr.String())
		}
		stdout.Reset()
		if code := run([]string{"xray", "--root", dir, "-e", "TODO", "--eval-code", "return None", "--json"}, nil, &stdout, &stderr); code != exitError {
			t.Errorf("--json: exit %d; want 2 as well", code)
		}
	})
	t.Run("some files", func(t *testing.T) {
		evaluator := `
if file_path < "f03.go":
    fail("broken on " + file_path)
if file_path < "f20.go":
    return 1
return {"matches": [{"line_number": 3}]}`
		var stdout, stderr bytes.Buffer
		code := run([]string{"xray", "--root", dir, "-e", "TODO", "--eval-code", evaluator}, nil, &stdout, &stderr)
		out := stdout.String()
		if code != exitFound || strings.Count(out, "InvalidEvaluatorReturn") != 2 || strings.Count(out, "broken on f01.go") != 1 ||
			!strings.Contains(out, "\nevaluation errors (20 errors, 4 distinct):\nInvalidEvaluatorReturn in 17 files (f03.go, f04.go, f05.go, …): ") ||
			!strings.HasSuffix(out, "\n5 matches; 25 of 25 candidate files evaluated; 20 evaluation errors (17 InvalidEvaluatorReturn, 3 EvaluatorCrash)\n") {
			t.Errorf("exit %d, stdout\n%s\nwant exit 0, 5 matches, the 17 identical errors once, each crash once, and the summary", code, out)
		}
	})
}
