package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// ignoredKeysTree is a project with keys ast-grep ignores: a test config's
// `snapshotdir`, `nthchild` inside `has`, and a test file's `valids`.
const ignoredKeysTree = `-- sgconfig.yml --
ruleDirs: [rules]
testConfigs:
  - testDir: tests
    snapshotdir: snaps
-- rules/call-with-arg.yml --
id: call-with-arg
language: go
rule:
  kind: call_expression
  has:
    kind: argument_list
    nthchild: 1
-- tests/call-with-arg.yml --
id: call-with-arg
invalid: ['f(1)']
valids: ['x']
-- main.go --
package main

func main() { println(1) }
`

// TestIgnoredKeysCLI: `structls scan` and `structls test` run a project
// holding keys ast-grep ignores, and say where each is, on stderr and in
// scan's JSON warnings.
func TestIgnoredKeysCLI(t *testing.T) {
	dir := testutil.WriteTree(t, ignoredKeysTree)
	want := []string{
		"sgconfig.yml:4:5: testConfigs[0].snapshotdir: unknown field `snapshotdir` in a test config is ignored (as ast-grep does): did you mean `snapshotDir`?",
		"rules/call-with-arg.yml:7:5: rule.has.nthchild: unknown field `nthchild` in `has` is ignored (as ast-grep does): did you mean `nthChild`?",
	}
	check := func(what, out string, want []string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s does not say %q:\n%s", what, w, out)
			}
		}
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(binary, "scan", "--json", ".")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("structls scan: %v\n%s", err, stderr.String())
	}
	var res struct {
		Diagnostics []json.RawMessage
		Warnings    []string
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("scan --json: %v\n%s", err, stdout.String())
	}
	if len(res.Diagnostics) != 1 {
		t.Errorf("%d findings; want 1 (the rule runs without the ignored key)", len(res.Diagnostics))
	}
	check("scan --json's warnings", strings.Join(res.Warnings, "\n"), want)
	check("scan's stderr", stderr.String(), want)

	stdout.Reset()
	stderr.Reset()
	cmd = exec.Command(binary, "test", "--update-all")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("structls test: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	check("test's stderr", stderr.String(), append(want, "tests/call-with-arg.yml:3:1: valids: unknown field `valids` in a rule test is ignored (as ast-grep does): did you mean `valid`?"))
}
