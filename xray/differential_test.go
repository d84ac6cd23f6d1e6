package xray

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// kindEvaluator lists every node of one kind as its byte range.
const kindEvaluator = `
found = node.descendants_of_type(KIND)
if node.type == KIND:
    found = [node] + found
return {"matches": [{"line_number": n.start_point[0] + 1, "start": n.start_byte, "end": n.end_byte} for n in found], "value": None}
`

// TestDifferentialKindAgainstAstGrep: an evaluator listing every node of
// kind K in a file finds exactly the nodes `ast-grep scan` finds with a
// `kind: K` rule, on Go standard library packages (the same grammar).
func TestDifferentialKindAgainstAstGrep(t *testing.T) {
	bin := testutil.AstGrep(t)
	goroot := runtime.GOROOT()
	for _, pkg := range []string{"strings", "bufio", "go/ast", "encoding/json"} {
		dir := filepath.Join(goroot, "src", filepath.FromSlash(pkg))
		if _, err := os.Stat(dir); err != nil {
			t.Skipf("no Go standard library sources at %s", dir)
		}
		for _, kind := range []string{"call_expression", "if_statement", "comment", "func_literal", "interpreted_string_literal", "ERROR"} {
			t.Run(pkg+"/"+kind, func(t *testing.T) {
				want := astGrepKind(t, bin, dir, kind)
				got := xrayKind(t, dir, kind)
				if kind != "ERROR" && len(want) == 0 {
					t.Fatalf("ast-grep found no %s in %s: the comparison would prove nothing", kind, pkg)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%d nodes from xray, %d from ast-grep; first differences:\n%s", len(got), len(want), firstDifferences(got, want))
				}
			})
		}
	}
}

// astGrepKind runs ast-grep scan with a kind rule over dir's top-level .go
// files and returns "file:start-end" of each match, sorted.
func astGrepKind(t *testing.T, bin, dir, kind string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	rule := fmt.Sprintf("id: k\nlanguage: go\nrule:\n  kind: %s\n", kind)
	cmd := exec.Command(bin, append([]string{"scan", "--inline-rules", rule, "--json=compact"}, names...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ast-grep scan: %v", err)
	}
	var matches []struct {
		File  string
		Range struct{ ByteOffset struct{ Start, End int } }
	}
	if err := json.Unmarshal(out, &matches); err != nil {
		t.Fatalf("ast-grep output: %v", err)
	}
	var keys []string
	for _, m := range matches {
		keys = append(keys, fmt.Sprintf("%s:%d-%d", m.File, m.Range.ByteOffset.Start, m.Range.ByteOffset.End))
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// xrayKind runs the kind evaluator over the same files.
func xrayKind(t *testing.T, dir, kind string) []string {
	t.Helper()
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	code := "KIND = " + fmt.Sprintf("%q", kind) + "\n" + kindEvaluator
	res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF8}, Query{Driver: `^[^/]*\.go$`, Target: "filename", Evaluator: code})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.EvaluationErrors) > 0 {
		t.Fatalf("evaluation errors: %+v", res.EvaluationErrors)
	}
	var keys []string
	for _, m := range res.Matches {
		keys = append(keys, fmt.Sprintf("%s:%v-%v", m.Path, m.Fields["start"], m.Fields["end"]))
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

func firstDifferences(got, want []string) string {
	var out string
	n := 0
	for _, g := range got {
		if !slices.Contains(want, g) && n < 5 {
			out += "  only xray:    " + g + "\n"
			n++
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) && n < 10 {
			out += "  only ast-grep: " + w + "\n"
			n++
		}
	}
	return out
}
