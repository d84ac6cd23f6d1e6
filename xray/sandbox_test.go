package xray

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestSandboxEscapes runs hostile evaluators on a.go while b.go runs a
// well-behaved branch: each attack must end in its error type on a.go
// alone, and b.go must still give its match.
func TestSandboxEscapes(t *testing.T) {
	small := Limits{MaxSteps: 5_000_000, MaxStringBytes: 1 << 20, MaxListLen: 100_000, MaxAllocBytes: 16 << 20}
	for _, tc := range []struct {
		name, attack string
		errorType    ErrorType
		message      string // a part of the message
	}{
		{"endless while", "while True:\n        pass", EvaluatorTimeout, "budget of 5000000 steps"},
		{"endless for over a growing list", "l = [1]\n    for x in l:\n        l.append(x)", EvaluatorCrash, "cannot append to list during iteration"},
		{"recursion", "def f(n):\n        return f(n + 1)\n    f(0)", EvaluatorCrash, "called recursively"},
		{"string repeat", `s = "x" * 10000000000`, EvaluatorCrash, "the * operator would make a string of"},
		{"string repeat, int first", `s = 100000000 * "xy"`, EvaluatorCrash, "the * operator would make a string of"},
		{"list repeat", `l = [0] * 1000000000`, EvaluatorCrash, "the * operator would make 1000000000 elements"},
		{"string doubling", "s = \"x\"\n    for i in range(64):\n        s = s + s", EvaluatorCrash, "the + operator would make a string of 2097152 bytes"},
		{"string doubling with +=", "s = \"x\"\n    for i in range(64):\n        s += s", EvaluatorCrash, "the += operator would make a string"},
		{"list doubling with extend", "l = [1]\n    for i in range(64):\n        l.extend(l)", EvaluatorCrash, ".extend() would make 131072 elements"},
		{"list doubling with +=", "l = [1]\n    for i in range(64):\n        l += l", EvaluatorCrash, "the += operator would make 131072 elements"},
		{"range", `l = list(range(10000000000))`, EvaluatorCrash, "list() would make 10000000000 elements"},
		// Builtins, methods and comprehensions that build a value from
		// another are charged to the file's budget (issue 21, item 6).
		{"lists of ranges", `l = [list(range(100000)) for i in range(200)]`, EvaluatorCrash, "list(): the evaluator built more than 16 MiB"},
		{"tuples", `l = [tuple(range(100000)) for i in range(200)]`, EvaluatorCrash, "tuple(): the evaluator built more than 16 MiB"},
		{"sorted", `l = [sorted(range(100000)) for i in range(200)]`, EvaluatorCrash, "sorted(): the evaluator built more than 16 MiB"},
		{"reversed", `l = [reversed(range(100000)) for i in range(200)]`, EvaluatorCrash, "reversed(): the evaluator built more than 16 MiB"},
		{"enumerate", `l = [enumerate(range(100000)) for i in range(200)]`, EvaluatorCrash, "enumerate(): the evaluator built more than 16 MiB"},
		{"dict of zip", `l = [dict(zip(range(100000), range(100000))) for i in range(200)]`, EvaluatorCrash, "the evaluator built more than 16 MiB"},
		{"set", `l = [set(range(100000)) for i in range(200)]`, EvaluatorCrash, "set(): the evaluator built more than 16 MiB"},
		{"upper", "s = \"x\" * 100000\n    l = [s.upper() for i in range(200)]", EvaluatorCrash, ".upper(): the evaluator built more than 16 MiB"},
		{"elems", "s = \"x\" * 100000\n    l = [list(s.elems()) for i in range(200)]", EvaluatorCrash, "list(): the evaluator built more than 16 MiB"},
		{"codepoints", "s = \"x\" * 50000\n    l = [tuple(s.codepoints()) for i in range(200)]", EvaluatorCrash, "tuple(): the evaluator built more than 16 MiB"},
		{"elems over the length cap", "s = \"x\" * 1000000\n    l = list(s.elems())", EvaluatorCrash, "list() would make 1000000 elements"},
		{"dict items", "d = {i: i for i in range(50000)}\n    l = [d.items() for i in range(200)]", EvaluatorCrash, ".items(): the evaluator built more than 16 MiB"},
		{"set union", "s = set(range(50000))\n    l = [s | s for i in range(200)]", EvaluatorCrash, "the | operator: the evaluator built more than 16 MiB"},
		{"list slices", "l = list(range(100000))\n    k = [l[1:] for i in range(200)]", EvaluatorCrash, "building values: the evaluator built more than 16 MiB"},
		{"list literals in a loop", "k = []\n    for i in range(90000):\n        k.append([i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i])", EvaluatorCrash, "the evaluator built more than 16 MiB"},
		{"dict comprehension", `d = {(i, j): 1 for i in range(1000000) for j in range(1000)}`, EvaluatorCrash, "the evaluator built more than 16 MiB"},
		{"closures kept by defaults", "f = None\n    for i in range(10000000):\n        f = lambda g=f: g", EvaluatorCrash, "building values: the evaluator built more than 16 MiB"},
		{"defs kept by defaults", "f = None\n    for i in range(10000000):\n        def h(g=f):\n            return g\n        f = h", EvaluatorCrash, "building values: the evaluator built more than 16 MiB"},
		{"print of a shared string", "s = \"x\" * 100000\n    print([s] * 50000)", EvaluatorCrash, "print() would make a string"},
		{"join of a shared string", "s = \"x\" * 100000\n    t = \",\".join([s] * 50000)", EvaluatorCrash, ".join() would make a string"},
		{"replace", "s = \"x\" * 100000\n    t = s.replace(\"\", s)", EvaluatorCrash, ".replace() would make a string"},
		{"str of shared references", "s = \"x\" * 100000\n    t = str([s] * 50000)", EvaluatorCrash, "str() would make a string"},
		{"percent format", "s = \"x\" * 100000\n    t = \"%s\" % ([s] * 50000,)", EvaluatorCrash, "the % operator would make a string"},
		{"format method", "s = \"x\" * 100000\n    t = \"{}\".format([s] * 50000)", EvaluatorCrash, ".format() would make a string"},
		{"many large strings", "s = \"x\" * 1000000\n    keep = []\n    for i in range(100):\n        keep.append(s + \"y\")", EvaluatorCrash, "more than 16 MiB"},
		{"split into many", "s = \"x\" * 1000000\n    l = s.split(\"x\")", EvaluatorCrash, ".split() would make 1000001 elements"},
		{"method taken as a value", "l = [1]\n    grow = l.extend\n    for i in range(64):\n        grow(l)", EvaluatorCrash, ".extend() would make"},
		{"getattr", `getattr(node, "type")`, EvaluatorCrash, "getattr is not available"},
		{"calling a guard", `__xray_binop__(1)`, EvaluatorCrash, "__xray_binop__ is internal to the sandbox"},
		{"calling a guard with a bad name", `__xray_attr__([], 1)`, EvaluatorCrash, "__xray_attr__ is internal to the sandbox"},
		{"dict growth", "d = {}\n    i = 0\n    while True:\n        d[i] = i\n        i += 1", EvaluatorCrash, "a dict would make 100001 elements"},
		{"dict growth through update", "d = {}\n    i = 0\n    while True:\n        d.update({k: 0 for k in range(i, i + 1000)})\n        i += 1000", EvaluatorCrash, ".update() would make 101000 elements"},
		{"integer squaring", "n = 3\n    for i in range(64):\n        n = n * n", EvaluatorCrash, "the * operator would make an integer of"},
		{"integer squaring with *=", "n = 3\n    for i in range(64):\n        n *= n", EvaluatorCrash, "the *= operator would make an integer of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := "if file_path == \"a.go\":\n    " + tc.attack + "\nreturn {\"matches\": [{\"line_number\": 1}]}"
			done := make(chan *Result, 1)
			go func() { done <- evaluate(t, code, small) }()
			var res *Result
			select {
			case res = <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("the evaluation did not stop within 60 s")
			}
			if len(res.EvaluationErrors) != 1 || len(res.Matches) != 1 || res.Matches[0].Path != "b.go" {
				t.Fatalf("got matches %+v, errors %+v; want b.go's match and one error for a.go", res.Matches, res.EvaluationErrors)
			}
			e := res.EvaluationErrors[0]
			if e.Path != "a.go" || e.ErrorType != tc.errorType || !strings.Contains(e.ErrorMessage, tc.message) {
				t.Errorf("got %s %s %q; want a.go %s containing %q", e.Path, e.ErrorType, e.ErrorMessage, tc.errorType, tc.message)
			}
		})
	}
}

// TestWellBehavedCodeFitsTheLimits checks that ordinary evaluator work is
// not refused: building strings and lists, joins, splits, formats.
func TestWellBehavedCodeFitsTheLimits(t *testing.T) {
	res := evaluate(t, `
lines = source.split("\n")
words = []
for l in lines:
    words += l.split(" ")
text = ", ".join(words) + "!" * 3
out = "%s has %d lines" % (file_path, len(lines))
return {"matches": [{"line_number": 1, "summary": out, "n": len(text) > 0, "f": "{}-{}".format(1, 2)}]}`, DefaultLimits)
	if len(res.EvaluationErrors) > 0 || len(res.Matches) != 2 {
		t.Fatalf("got %+v, errors %+v", res.Matches, res.EvaluationErrors)
	}
	if got := jsonText(res.Matches[0].Fields); got != `{"f":"1-2","n":true,"summary":"a.go has 4 lines"}` {
		t.Errorf("fields = %s", got)
	}
}

// TestFileTimeout checks fileTimeoutMs: an endless loop under a step budget
// too large to matter is stopped by the clock, as EvaluatorTimeout.
func TestFileTimeout(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	ms := 200
	limits := DefaultLimits
	limits.MaxSteps = 1 << 62
	q := Query{Driver: "func", FileTimeoutMs: &ms, Evaluator: "if file_path == \"a.go\":\n    while True:\n        pass\nreturn {\"matches\": []}"}
	res, err := search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q, limits, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []EvaluationError{{Path: "a.go", ErrorType: EvaluatorTimeout, ErrorMessage: "evaluator exceeded the 200 ms per-file limit (fileTimeoutMs)"}}
	if len(res.EvaluationErrors) != 1 || res.EvaluationErrors[0].ErrorMessage != want[0].ErrorMessage || res.EvaluationErrors[0].ErrorType != EvaluatorTimeout {
		t.Errorf("errors = %+v; want %+v", res.EvaluationErrors, want)
	}
	if res.FilesEvaluated != 2 || res.Timeout || res.Partial {
		t.Errorf("filesEvaluated %d, timeout %v, partial %v; want 2, false, false", res.FilesEvaluated, res.Timeout, res.Partial)
	}
}

// TestRunTimeout checks timeoutSeconds: files still running when the run's
// time is up are left out and the result says timeout and partial.
func TestRunTimeout(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	one, long := 1, 600_000
	limits := DefaultLimits
	limits.MaxSteps = 1 << 62
	q := Query{Driver: "func", TimeoutSeconds: &one, FileTimeoutMs: &long, Evaluator: "while True:\n    pass"}
	res, err := search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q, limits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Timeout || !res.Partial || res.FilesEvaluated != 0 || len(res.EvaluationErrors) != 0 || res.Candidates != 2 {
		t.Errorf("got %+v; want timeout, partial, nothing evaluated, 2 candidates", res)
	}
}

// TestCancel checks that cancelling the context stops an endless evaluation
// and Search returns the context's error.
func TestCancel(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	limits := DefaultLimits
	limits.MaxSteps = 1 << 62
	long := 600_000
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := search(ctx, engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "func", FileTimeoutMs: &long, Evaluator: "while True:\n    pass"}, limits, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v; want context.Canceled", err)
	}
}

// TestStoppedByUser checks a stop (the progress Cancel button): the files
// evaluated by then are kept and the result says cancelled and partial,
// not timeout; a stop before any evaluation is an empty cancelled result.
func TestStoppedByUser(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	limits := DefaultLimits
	limits.MaxSteps = 1 << 62
	long := 600_000
	evaluator := "if file_path == \"a.go\":\n    return {\"matches\": [{\"line_number\": 3}]}\nwhile True:\n    pass"
	for _, delay := range []time.Duration{0, 200 * time.Millisecond} {
		ctx, stop := context.WithCancelCause(context.Background())
		time.AfterFunc(delay, func() { stop(workspace.ErrStoppedByUser) })
		res, err := search(ctx, engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "func", FileTimeoutMs: &long, Evaluator: evaluator}, limits, nil)
		if err != nil {
			t.Fatalf("stop after %v: %v; want the partial result", delay, err)
		}
		if !res.Cancelled || !res.Partial || res.Timeout || len(res.Matches) > 1 || len(res.Matches) != res.FilesEvaluated {
			t.Errorf("stop after %v: got %+v; want cancelled, partial, at most a.go's match", delay, res)
		}
		if delay > 0 && (len(res.Matches) != 1 || res.Matches[0].Path != "a.go") {
			t.Errorf("stop after %v: matches %+v; want a.go's, evaluated before the stop", delay, res.Matches)
		}
	}
}

// TestDriverProgress checks that phase 1 reports the files it searched
// (with total 0: no percentage) before phase 2 reports the candidates
// evaluated out of their total.
func TestDriverProgress(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles+"-- c.txt --\nno hit\n")
	var mu sync.Mutex
	var calls [][2]int
	progress := func(done, total int) { mu.Lock(); calls = append(calls, [2]int{done, total}); mu.Unlock() }
	if _, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16, Progress: progress}, Query{Driver: "func"}); err != nil {
		t.Fatal(err)
	}
	first := slices.IndexFunc(calls, func(c [2]int) bool { return c[1] != 0 })
	if first <= 0 {
		t.Fatalf("progress calls %v; want phase 1's, with total 0, first", calls)
	}
	searched := slices.MaxFunc(calls[:first], func(a, b [2]int) int { return a[0] - b[0] })
	evaluated := slices.Clone(calls[first:]) // workers may report out of order
	slices.SortFunc(evaluated, func(a, b [2]int) int { return a[0] - b[0] })
	if searched != [2]int{3, 0} || !slices.Equal(evaluated, [][2]int{{1, 2}, {2, 2}}) {
		t.Errorf("progress calls %v; want the 3 files searched (total 0), then 1/2 and 2/2 evaluated", calls)
	}
}

// TestMaxFiles checks the cap on candidate files: the first N in path order.
func TestMaxFiles(t *testing.T) {
	dir := testutil.WriteTree(t, contractFiles)
	one := 1
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Driver: "func", MaxFiles: &one})
	if err != nil {
		t.Fatal(err)
	}
	if !res.MaxFilesReached || !res.Partial || res.Candidates != 2 || res.FilesEvaluated != 1 || len(res.Matches) != 1 || res.Matches[0].Path != "a.go" {
		t.Errorf("got %+v", res)
	}
}

// TestNodeListsAreCharged: keeping the node lists XRayNode members return
// costs few steps per list; their memory counts against the budget.
func TestNodeListsAreCharged(t *testing.T) {
	limits := Limits{MaxSteps: 30_000_000, MaxStringBytes: 1 << 20, MaxListLen: 1 << 22, MaxAllocBytes: 16 << 20}
	for _, member := range []string{"node.children", "node.named_children", `node.descendants_of_type("identifier")`, `node.children_by_field_name("name")`} {
		t.Run(member, func(t *testing.T) {
			// A dict keeps them: its entries are not charged, so only the lists are.
			res := evaluate(t, "keep = {}\ni = 0\nwhile True:\n    keep[i] = "+member+"\n    i += 1", limits)
			if len(res.EvaluationErrors) != 2 {
				t.Fatalf("errors %+v; want one per file", res.EvaluationErrors)
			}
			for _, e := range res.EvaluationErrors {
				if e.ErrorType != EvaluatorCrash || !strings.Contains(e.ErrorMessage, "more than 16 MiB") {
					t.Errorf("%s: %s %q; want EvaluatorCrash over the 16 MiB budget", e.Path, e.ErrorType, e.ErrorMessage)
				}
			}
		})
	}
}
