package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// TestAstGrepDebugQueryCLI checks structls astgrep --debug-query: the view
// on stdout and exit 0, nothing searched; without -p the positional
// arguments are paths, not the pattern.
func TestAstGrepDebugQueryCLI(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nvar x = f(1)\n")
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		stdout   string // all of stdout
		stderr   string // a part of stderr
	}{
		{"pattern", []string{"--debug-query=pattern", "-p", "f($A)", "-l", "go", "--selector", "call_expression"}, exitFound,
			"call_expression\n  identifier f\n  argument_list\n    (\n    MetaVar $A\n    )\n", ""},
		{"file tree, the file as a positional argument", []string{"--debug-query=ast", "a.go"}, exitFound,
			"source_file (0,0)-(3,0)\n  package_clause (0,0)-(0,9)\n    package_identifier (0,8)-(0,9)\n  var_declaration (2,0)-(2,12)\n    var_spec (2,4)-(2,12)\n      name: identifier (2,4)-(2,5)\n      value: expression_list (2,8)-(2,12)\n        call_expression (2,8)-(2,12)\n          function: identifier (2,8)-(2,9)\n          arguments: argument_list (2,9)-(2,12)\n            int_literal (2,10)-(2,11)\n", ""},
		{"sexp ends its line", []string{"--debug-query=sexp", "-p", "f(x)", "-l", "go"}, exitFound,
			"(source_file (ERROR (call_expression function: (identifier) arguments: (argument_list (identifier)))))\n", ""},
		{"no file", []string{"--debug-query=cst"}, exitError, "", "name exactly one file"},
		{"unknown view", []string{"--debug-query=tree", "-p", "f()", "-l", "go"}, exitError, "", "use pattern, ast, cst or sexp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"astgrep", "--root", dir}, tc.args...), nil, &stdout, &stderr)
			if code != tc.wantCode {
				t.Fatalf("exit %d; want %d (stdout %q, stderr %q)", code, tc.wantCode, stdout.String(), stderr.String())
			}
			if stdout.String() != tc.stdout || !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stdout %q, stderr %q; want stdout %q and stderr holding %q", stdout.String(), stderr.String(), tc.stdout, tc.stderr)
			}
		})
	}
}
