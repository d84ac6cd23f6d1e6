package rules

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// TestScalarForms: every YAML scalar form reads as the string ast-grep
// 0.51.1 reads (a rule's message, echoed by `ast-grep scan --json`): block
// scalars with each chomping indicator, at the end of the file with and
// without a final newline, with trailing blank lines, in CRLF files, with
// tabs, after a BOM.
func TestScalarForms(t *testing.T) {
	bin := testutil.AstGrep(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.js"), []byte("foo(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const head = "id: x\nlanguage: js\nrule: {pattern: foo($$$)}\n"
	forms := map[string]string{
		"literal at EOF, no newline":          head + "message: |\n  one\n  two",
		"literal at EOF":                      head + "message: |\n  one\n  two\n",
		"literal strip at EOF, no newline":    head + "message: |-\n  one\n  two",
		"literal keep at EOF, no newline":     head + "message: |+\n  one\n  two",
		"literal keep, trailing blank lines":  head + "message: |+\n  one\n\n\n",
		"literal clip, trailing blank lines":  head + "message: |\n  one\n\n\n",
		"literal strip, trailing blank lines": head + "message: |-\n  one\n\n\n",
		"folded at EOF, no newline":           head + "message: >\n  one\n  two",
		"folded keep":                         head + "message: >+\n  one\n\n  two\n\n",
		"folded with more-indented lines":     head + "message: >\n  one\n    two\n  three\n",
		"literal with indentation indicator":  head + "message: |2\n    one\n  two\n",
		"folded, trailing spaces":             head + "message: >-\n  one two \n  three  \n  four \n",
		"folded at EOF, trailing space":       head + "message: >-\n  one two \n  four ",
		"literal, trailing spaces":            head + "message: |\n  one  \n  two \n",
		"literal strip, trailing spaces":      head + "message: |-\n  one \n  two  \n",
		"plain, a trailing space":             head + "message: one two \n",
		"literal then a key":                  "id: x\nlanguage: js\nmessage: |\n  one\n\nrule: {pattern: foo($$$)}\n",
		"CRLF literal":                        "id: x\r\nlanguage: js\r\nrule: {pattern: foo($$$)}\r\nmessage: |\r\n  one\r\n  two\r\n",
		"CRLF literal at EOF, no newline":     "id: x\r\nlanguage: js\r\nrule: {pattern: foo($$$)}\r\nmessage: |\r\n  one\r\n  two",
		"tab inside a literal":                head + "message: |\n  one\ttwo\n  \tthree\n",
		"BOM":                                 "\ufeff" + head + "message: plain text",
		"double-quoted escapes": head + `message: "a\tb\x41\u00e9\N\_\
  continued"` + "\n",
		"single-quoted multi-line": head + "message: 'one\n\n  two '''\n",
		"plain multi-line":         head + "message: one\n  two\n\n  three\n",
	}
	for name, yaml := range forms {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, "r.yml")
			if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "scan", "-r", file, "--json=compact", "a.js")
			cmd.Dir = dir
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("ast-grep: %v: %s", err, out)
			}
			var matches []struct{ Message string }
			if err := json.Unmarshal(out, &matches); err != nil || len(matches) != 1 {
				t.Fatalf("ast-grep's JSON (%v): %s", err, out)
			}
			src, err := ReadYAMLFile(file)
			if err != nil {
				t.Fatal(err)
			}
			set, err := ParseRules(file, src, Options{})
			if err != nil {
				t.Fatalf("structls: %v", err)
			}
			if got := set.Rules[0].Message; got != matches[0].Message {
				t.Errorf("structls reads %q; ast-grep %q", got, matches[0].Message)
			}
		})
	}
}
