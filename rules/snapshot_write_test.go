package rules

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
)

// TestSnapshotWriting: `structls test --update-all` writes the snapshot
// file ast-grep 0.51.1 writes for test cases of every scalar style (plain,
// quoted because YAML would read a number, a boolean or null, escapes,
// literal blocks with each chomping, folded long lines, explicit keys past
// 1,024 characters), byte for byte.
func TestSnapshotWriting(t *testing.T) {
	bin := testutil.AstGrep(t)
	cases := []string{"a", "1", "true", "null", "~", "yes", "Off", "y", "0x1F", "0o7", "1_000", "1.5", ".inf", "1e3", "2001-12-14", "12:30", "=", "<<",
		"-a", "?a", ":a", "- a", "!a", "&a", "*a", "%a", "@a", "`a", "#a", "|a", ">a", "[a]", "{a}", "'a'", `"a"`, "a,b", "a: b", "a #b", "a:", "a\\b", "é",
		"a\u00a0b", "a\tb", "a\x07b", "a\x7fb", "a\u0085b", "a\r\nb", "a\nb", "a\nb\n", "a\n\n", "a\n\nb", "a\n  \nb", "a\n b", "a  \nb",
		strings.Repeat("x", 80), strings.Repeat("x", 81), strings.Repeat("x", 1024), strings.Repeat("x", 1025), strings.Repeat("x y ", 30) + "x",
		"x\n" + strings.Repeat("y", 1100)}
	var test strings.Builder
	test.WriteString("id: any\ninvalid:\n")
	for _, c := range cases {
		test.WriteString("- " + strconv.QuoteToASCII(c) + "\n") // Go's escapes are YAML's too
	}
	tree := "-- sgconfig.yml --\nruleDirs: [rules]\ntestConfigs: [{testDir: tests}]\n-- rules/any.yml --\nid: any\nlanguage: javascript\nrule: {kind: program}\n"
	byAstGrep, byStructls := testutil.WriteTree(t, tree), testutil.WriteTree(t, tree)
	for _, dir := range []string{byAstGrep, byStructls} {
		if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "tests", "any.yml"), []byte(test.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command(bin, "test", "-U", "-c", filepath.Join(byAstGrep, "sgconfig.yml")).CombinedOutput(); err != nil {
		t.Fatalf("ast-grep test -U: %v\n%s", err, out)
	}
	p, err := LoadProject(filepath.Join(byStructls, "sgconfig.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.RunTests(t.Context(), TestOptions{UpdateAll: true}); err != nil {
		t.Fatal(err)
	}
	theirs, _ := os.ReadFile(filepath.Join(byAstGrep, "tests", "__snapshots__", "any-snapshot.yml"))
	ours, _ := os.ReadFile(filepath.Join(byStructls, "tests", "__snapshots__", "any-snapshot.yml"))
	if diff := cmp.Diff(string(theirs), string(ours)); diff != "" {
		t.Errorf("snapshot files differ (-ast-grep +structls):\n%s", diff)
	}
}
