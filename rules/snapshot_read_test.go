package rules

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// snapshotProject has two rules; the snapshots of "two" are planted by
// each test below.
const snapshotProject = `-- sgconfig.yml --
ruleDirs: [rules]
testConfigs: [{testDir: tests}]
-- rules/one.yml --
id: one
language: javascript
rule: {pattern: one($A)}
-- rules/two.yml --
id: two
language: javascript
rule: {pattern: two($A)}
-- tests/one.yml --
id: one
invalid: [one(1)]
-- tests/two.yml --
id: two
invalid:
  - |
    two(1)
  - |
    two(2)
-- tests/__snapshots__/one-snapshot.yml --
id: one
snapshots:
  one(1):
    labels:
    - source: one(1)
      style: primary
      start: 0
      end: 6
`

// twoSnapshot is the snapshot of a case of rule two, as ast-grep writes it.
func twoSnapshot(key, n string) string {
	return "  " + key + "\n" + "  : labels:\n    - source: two(" + n + ")\n      style: primary\n      start: 0\n      end: 6\n"
}

// TestSnapshotExplicitKeys: a snapshot file keyed by explicit `? |` block
// keys (as ast-grep writes a case it cannot write as a plain key) reads,
// and ast-grep reads it too.
func TestSnapshotExplicitKeys(t *testing.T) {
	dir := testutil.WriteTree(t, snapshotProject+"-- tests/__snapshots__/two-snapshot.yml --\nid: two\nsnapshots:\n"+
		twoSnapshot("? |\n    two(1)", "1")+twoSnapshot("? |\n    two(2)", "2"))
	if out, err := exec.Command(testutil.AstGrep(t), "test", "-c", filepath.Join(dir, "sgconfig.yml")).CombinedOutput(); err != nil {
		t.Fatalf("ast-grep test fails on the planted snapshot: %v\n%s", err, out)
	}
	results := runProjectTests(t, dir)
	for _, r := range results {
		if !r.Passed() {
			t.Errorf("%s: %s %v; want passed", r.ID, r.Marks, r.Details)
		}
	}
}

// TestSnapshotDuplicateKey: a snapshot file giving a case twice (which
// ast-grep 0.51.1 refuses, stopping its whole run) fails that rule's cases
// with the line of each, and the other rules' tests still run and pass.
func TestSnapshotDuplicateKey(t *testing.T) {
	dir := testutil.WriteTree(t, snapshotProject+"-- tests/__snapshots__/two-snapshot.yml --\nid: two\nsnapshots:\n"+
		twoSnapshot("? |\n    two(1)", "1")+twoSnapshot("? |\n    two(1)", "1"))
	results := runProjectTests(t, dir)
	if len(results) != 2 {
		t.Fatalf("%d results; want both rules' (the other rule's tests must run)", len(results))
	}
	for _, r := range results {
		switch r.ID {
		case "one":
			if !r.Passed() {
				t.Errorf("one: %s %v; want passed", r.Marks, r.Details)
			}
		case "two":
			if r.Marks != "WW" || len(r.Details) == 0 || !strings.Contains(r.Details[0], "two-snapshot.yml:10:5") || !strings.Contains(r.Details[0], "given twice (first on line 3)") {
				t.Errorf("two: %s %q; want WW, naming the second key's line and the first's", r.Marks, r.Details)
			}
		}
	}
}

func runProjectTests(t *testing.T, dir string) []RuleTestResult {
	t.Helper()
	p, err := LoadProject(filepath.Join(dir, "sgconfig.yml"))
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.RunTests(context.Background(), TestOptions{})
	if err != nil {
		t.Fatalf("the run stopped: %v", err)
	}
	return results
}
