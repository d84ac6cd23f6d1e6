package xray

import (
	"context"
	"strings"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestChargesPastTheStepBudget: a comprehension's elements and node.text's
// copies are charged to the file's memory budget, which stops them long
// before a step budget would (each element, each copy, is a few steps).
func TestChargesPastTheStepBudget(t *testing.T) {
	limits := Limits{MaxSteps: 50_000_000, MaxStringBytes: 1 << 20, MaxListLen: 100_000, MaxAllocBytes: 16 << 20}
	big := "package a\n\nfunc A() {}\n" + strings.Repeat("// "+strings.Repeat("x", 60)+"\n", 16_000) // 1 MB
	dir := testutil.WriteTree(t, "-- a.go --\n"+big+"-- b.go --\npackage b\n\nfunc B() {}\n")
	minute := 60_000
	for _, tc := range []struct{ name, attack, message string }{
		{"nested comprehension", `l = [i for i in range(1000000) for j in range(1000)]`, "a comprehension: the evaluator built more than 16 MiB"},
		{"node text", `l = [node.text for i in range(100)]`, "XRayNode.text: the evaluator built more than 16 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := "if file_path == \"a.go\":\n    " + tc.attack + "\nreturn {\"matches\": [{\"line_number\": 1}]}"
			q := Query{Driver: "func", Evaluator: code, FileTimeoutMs: &minute}
			res, err := search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q, limits, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.EvaluationErrors) != 1 || len(res.Matches) != 1 || res.Matches[0].Path != "b.go" {
				t.Fatalf("got matches %+v, errors %+v; want b.go's match and one error for a.go", res.Matches, res.EvaluationErrors)
			}
			if e := res.EvaluationErrors[0]; e.ErrorType != EvaluatorCrash || !strings.Contains(e.ErrorMessage, tc.message) {
				t.Errorf("got %s %q; want EvaluatorCrash containing %q", e.ErrorType, e.ErrorMessage, tc.message)
			}
		})
	}
}
