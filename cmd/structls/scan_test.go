package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

const scanCLITree = `-- sgconfig.yml --
ruleDirs: [rules]
testConfigs: [{testDir: tests}]
-- rules/no-panic.yml --
id: no-panic
language: go
rule: {pattern: panic($A)}
message: do not panic with $A
severity: error
fix: fail($A)
-- rules/warn-print.yml --
id: warn-print
language: go
rule: {pattern: 'println($$$)'}
message: printing
severity: warning
-- tests/no-panic.yml --
id: no-panic
valid: ['fail(1)']
invalid: ['panic(2)']
-- tests/__snapshots__/no-panic-snapshot.yml --
id: no-panic
snapshots:
  panic(2):
    fixed: fail(2)
    labels:
    - source: panic(2)
      style: primary
      start: 0
      end: 8
-- a.go --
package a

func f() {
	panic("x")
	println(1)
}
-- meta.yml --
id: meta
language: go
rule: {pattern: 'println($$$)'}
metadata: {owner: core, cwe: [1, 2]}
-- other.yml --
id: only-print
language: go
rule: {pattern: 'println($$$)'}
severity: error
`

// TestScanExitCodes: 1 when an error-severity diagnostic is found (with
// --apply, one its fix did not remove), 0 when not, 2 when the rules do
// not load; the 0/1 cases are checked against ast-grep scan's exit code.
func TestScanExitCodes(t *testing.T) {
	astGrep := testutil.AstGrep(t)
	tests := []struct {
		args    []string
		code    int
		out     string   // a line the output must hold
		astGrep []string // the same scan with ast-grep, when it has one
	}{
		{nil, 1, "error[no-panic]: do not panic with \"x\"", []string{"scan"}},
		{[]string{"--filter", "warn"}, 0, "warning[warn-print]: printing", []string{"scan", "--filter", "warn"}},
		{[]string{"--json"}, 1, `"ruleId":"no-panic"`, nil},
		{[]string{"--format", "github"}, 1, "::error file=a.go,line=4,endLine=4,col=2,endColumn=12,title=no-panic::do not panic with \"x\"", nil},
		{[]string{"-r", "$DIR/other.yml"}, 1, "error[only-print]", []string{"scan", "-r", "other.yml"}},
		{[]string{"--apply"}, 0, "error[no-panic]", []string{"scan", "-U"}},
		{[]string{"--inline-rules", "id: x\nlanguage: go\nrule: {kind: nosuch}\n"}, 2, "", nil},
		{[]string{"--inline-rules", "id: x\nlanguage: go\nseverty: error\nrule: {kind: call_expression}\n"}, 2, "", nil},
		{[]string{"--filter", "^nothing"}, 2, "", nil},
		{[]string{"--json", "--include-metadata", "-r", "$DIR/meta.yml"}, 0, `"metadata":{"cwe":[1,2],"owner":"core"}`, nil},
		{[]string{"--warning=no-panic"}, 0, "warning[no-panic]", []string{"scan", "--warning=no-panic"}},
		{[]string{"--error"}, 1, "error[warn-print]", []string{"scan", "--error"}},
		{[]string{"--off=no-panic", "--error=warn-print"}, 1, "error[warn-print]", []string{"scan", "--off=no-panic", "--error=warn-print"}},
		{[]string{"--format", "sarif"}, 2, "", nil},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(strings.Join(tt.args, " "), "$DIR/", ""), func(t *testing.T) {
			dir := testutil.WriteTree(t, scanCLITree)
			var stdout, stderr bytes.Buffer
			args := append([]string{"scan", "--root", dir}, tt.args...)
			for i := range args {
				args[i] = strings.ReplaceAll(args[i], "$DIR", dir)
			}
			code := run(args, nil, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit code %d; want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.out) {
				t.Errorf("stdout:\n%s\nwant a line %q", stdout.String(), tt.out)
			}
			if code == 2 && stderr.Len() == 0 {
				t.Error("an error exit must say why on stderr")
			}
			if tt.astGrep != nil {
				other := testutil.WriteTree(t, scanCLITree)
				cmd := exec.Command(astGrep, tt.astGrep...)
				cmd.Dir = other
				err := cmd.Run()
				var exit *exec.ExitError
				agCode := 0
				if errors.As(err, &exit) {
					agCode = exit.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if agCode != code {
					t.Errorf("ast-grep %v exits %d, structls %d", tt.astGrep, agCode, code)
				}
				if slicesContain(tt.args, "--apply") {
					want, _ := os.ReadFile(filepath.Join(other, "a.go"))
					got, _ := os.ReadFile(filepath.Join(dir, "a.go"))
					if string(got) != string(want) {
						t.Errorf("after --apply a.go is %q; ast-grep -U made %q", got, want)
					}
				}
			}
		})
	}
}

func slicesContain(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestScanRuleErrorNamesField: a misspelt field is reported with the file,
// line and the fields allowed there.
func TestScanRuleErrorNamesField(t *testing.T) {
	dir := testutil.WriteTree(t, scanCLITree)
	var stdout, stderr bytes.Buffer
	code := run([]string{"scan", "--root", dir, "--inline-rules", "id: x\nlanguage: go\nseverty: error\nrule: {kind: call_expression}\n"}, nil, &stdout, &stderr)
	want := "inline rules:3:1: severty: unknown field `severty` in a rule document: expected one of id, language, rule"
	if code != 2 || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr.String(), want)
	}
}

// TestScanApplySkipsInvalidUTF8: a file that is not UTF-8 is reported but
// not fixed (an LSP edit could not carry its bytes), so its error still
// fails the run; the other files are fixed.
func TestScanApplySkipsInvalidUTF8(t *testing.T) {
	dir := testutil.WriteTree(t, scanCLITree)
	latin1 := []byte("package a\n\n// caf\xe9\nfunc g() { panic(1) }\n")
	os.WriteFile(filepath.Join(dir, "b.go"), latin1, 0o644)
	var stdout, stderr bytes.Buffer
	code := run([]string{"scan", "--root", dir, "--apply"}, nil, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "b.go: not fixed: the file is not valid UTF-8") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "b.go")); !bytes.Equal(got, latin1) {
		t.Errorf("b.go changed: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.go")); !strings.Contains(string(got), `fail("x")`) {
		t.Errorf("a.go not fixed: %q", got)
	}
}

// TestScanWithoutRules: no sgconfig.yml and no rules is an error that
// says what to do (exit 2), for scan and test alike.
func TestScanWithoutRules(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"scan", "--root", dir}, nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "no sgconfig.yml found") {
		t.Errorf("scan: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	t.Chdir(dir)
	if code := run([]string{"test"}, nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "no sgconfig.yml found") {
		t.Errorf("test: exit %d, stderr %q", code, stderr.String())
	}
}

// TestRuleTestCommand runs `structls test`: passing snapshots, then a
// wrong one (exit 1), then --update-all.
func TestRuleTestCommand(t *testing.T) {
	dir := testutil.WriteTree(t, scanCLITree)
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"test"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "PASS no-panic  ..") {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	snap := filepath.Join(dir, "tests", "__snapshots__", "no-panic-snapshot.yml")
	old, _ := os.ReadFile(snap)
	os.WriteFile(snap, bytes.Replace(old, []byte("fail(2)"), []byte("oops(2)"), 1), 0o644)
	stdout.Reset()
	if code := run([]string{"test"}, nil, &stdout, &stderr); code != 1 || !strings.Contains(stdout.String(), "FAIL no-panic  .W") {
		t.Fatalf("exit %d\n%s", code, stdout.String())
	}
	stdout.Reset()
	if code := run([]string{"test", "--update-all"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "PASS no-panic  .U") {
		t.Fatalf("exit %d\n%s", code, stdout.String())
	}
	if b, _ := os.ReadFile(snap); !strings.Contains(string(b), "fixed: fail(2)\n") {
		t.Errorf("snapshot after --update-all:\n%s", b)
	}
}
