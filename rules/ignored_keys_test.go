package rules

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// TestIgnoredKeys: where ast-grep 0.51.1 ignores a key it does not know,
// the rule loads here too, runs without the key (the same matches as
// ast-grep's), and a warning names the file, line, column and field, with
// the known key a typo most likely meant.
func TestIgnoredKeys(t *testing.T) {
	bin := testutil.AstGrep(t)
	dir := t.TempDir()
	const code = "function f(a) { foo(a, 1); bar(2); }\n"
	if err := os.WriteFile(filepath.Join(dir, "a.js"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	const head = "id: x\nlanguage: js\n"
	tests := []struct {
		name, yaml string
		at         string // file:line:column: field
		says       string
	}{
		{"typo in has", head + "rule:\n  kind: call_expression\n  has:\n    kind: arguments\n    nthchild: 1\n", "r.yml:7:5: rule.has.nthchild", "did you mean `nthChild`?"},
		{"stopby in inside", head + "rule:\n  kind: call_expression\n  inside:\n    kind: function_declaration\n    stopby: end\n", "r.yml:7:5: rule.inside.stopby", "did you mean `stopBy`?"},
		{"nthChild fields in has", head + "rule:\n  kind: call_expression\n  has:\n    kind: arguments\n    position: 1\n    ofRule: {kind: number}\n", "r.yml:7:5: rule.has.position", "`position` belongs in `nthChild`"},
		{"pattern in nthChild", head + "rule:\n  kind: identifier\n  nthChild:\n    position: 1\n    pattern: foo\n", "r.yml:7:5: rule.nthChild.pattern", "expected one of position, ofRule, reverse"},
		{"unknown key in range", head + "rule:\n  kind: call_expression\n  range:\n    start: {line: 0, column: 16}\n    end: {line: 0, column: 25, colum: 3}\n", "r.yml:7:32: rule.range.end.colum", "did you mean `column`?"},
		{"unknown key in a fix", head + "rule: {pattern: foo($$$)}\nfix:\n  template: baz()\n  expandend: {regex: ','}\n", "r.yml:6:3: fix.expandend", "did you mean `expandEnd`?"},
		{"unknown key in a label", head + "rule:\n  pattern: foo($A, $$$)\nlabels:\n  A:\n    style: secondary\n    mesage: the argument\n", "r.yml:8:5: labels.A.mesage", "did you mean `message`?"},
		{"unknown key in a transformation", head + "rule:\n  pattern: foo($A, $$$)\ntransform:\n  B:\n    substring:\n      source: $A\n      startchar: 1\n", "r.yml:9:7: transform.B.substring.startchar", "did you mean `startChar`?"},
		{"unknown key in a glob", head + "rule: {pattern: foo($$$)}\nfiles:\n  - glob: '*.js'\n    caseinsensitive: true\n", "r.yml:6:5: files[0].caseinsensitive", "did you mean `caseInsensitive`?"},
	}
	js, err := lang.Lookup("javascript")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := ParseRules("r.yml", []byte(tt.yaml), Options{BaseDir: dir})
			if err != nil {
				t.Fatalf("the rule does not load: %v; ast-grep runs it, ignoring the key", err)
			}
			if len(set.Warnings) < 1 || !strings.HasPrefix(set.Warnings[0], tt.at+": ") || !strings.Contains(set.Warnings[0], tt.says) {
				t.Errorf("warnings %q; want one at %q saying %q", set.Warnings, tt.at, tt.says)
			}
			if len(set.Ignored) != len(set.Warnings) {
				t.Errorf("ignored keys %v; want one per warning", set.Ignored)
			}
			tree, err := syntax.Parse(context.Background(), js.Grammar(), []byte(code))
			if err != nil {
				t.Fatal(err)
			}
			findings, err := set.CheckUnsuppressed(context.Background(), filepath.Join(dir, "a.js"), js, tree)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "scan", "--inline-rules", tt.yaml, "--json=compact", "a.js")
			cmd.Dir = dir
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("ast-grep: %v: %s", err, out)
			}
			var matches []struct {
				Range struct{ ByteOffset struct{ Start, End int } }
			}
			if err := json.Unmarshal(out, &matches); err != nil {
				t.Fatalf("ast-grep's JSON: %v: %s", err, out)
			}
			if len(findings) != len(matches) {
				t.Fatalf("%d findings; ast-grep has %d: %s", len(findings), len(matches), out)
			}
			for i, m := range matches {
				if f := findings[i]; f.Start != m.Range.ByteOffset.Start || f.End != m.Range.ByteOffset.End {
					t.Errorf("finding %d at %d-%d; ast-grep's at %d-%d", i, f.Start, f.End, m.Range.ByteOffset.Start, m.Range.ByteOffset.End)
				}
			}
		})
	}
}
