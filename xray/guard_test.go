package xray

import (
	"strings"
	"testing"

	"go.starlark.net/syntax"
)

// TestGuardRewrite checks which operations the rewrite routes through a
// guard: every one that can build a large value, and not the addition of
// a number literal (`line + 1`), which cannot and is the most common.
func TestGuardRewrite(t *testing.T) {
	for _, tc := range []struct {
		code  string
		guard string // the guard the statement must call; "" for none
	}{
		{"x = y + 1", ""},
		{"x = 1 + y", ""},
		{"x = y + 1.5", ""},
		{"x = c.start_point[0] + 1", ""},
		{"i += 1", ""},
		{"x = y + z", binopGuard},
		{`x = y + "a"`, binopGuard},
		{"x = y + -1", binopGuard},
		{"x = y * 2", binopGuard},
		{"x = 2 * y", binopGuard},
		{"x = y % 1", binopGuard},
		{"i += n", growGuard},
		{"i *= 2", growGuard},
		{`s += "a"`, growGuard},
		{"x = (y + 1) + z", binopGuard},
		{"x = y - 1", ""},
		{"x = y - z", binopGuard},
		{"x = y | z", binopGuard},
		{"x = [y]", newGuard},
		{"x = (y, z)", newGuard},
		{"x = {y: z}", newGuard},
		{"x = y[1:]", newGuard},
		{"x = lambda: 1", newGuard},
		{"x = [c for c in y]", itemGuard},
		{"x = {c: 1 for c in y}", itemGuard},
	} {
		f, err := fileOptions.Parse("test", tc.code, 0)
		if err != nil {
			t.Fatal(err)
		}
		guardFile(f)
		var guards []string
		syntax.Walk(f, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok {
				if id, ok := c.Fn.(*syntax.Ident); ok && strings.HasPrefix(id.Name, "__xray_") {
					guards = append(guards, id.Name)
				}
			}
			return true
		})
		want := []string{}
		if tc.guard != "" {
			want = []string{tc.guard}
		}
		if strings.Join(guards, ",") != strings.Join(want, ",") {
			t.Errorf("%s: calls %v; want %v", tc.code, guards, want)
		}
	}
}

// TestNumberAdditionUnguarded: the additions the rewrite leaves alone give
// what Starlark gives, numbers or its own error.
func TestNumberAdditionUnguarded(t *testing.T) {
	res := evaluate(t, `
i = 0
i += 1
big = 1
for k in range(200):
    big = big * 2
return {"matches": [{"line_number": 1, "v": [i + 1, 2.5 + 1, 1 + 0.5, len(str(big + 1))]}]}`, DefaultLimits)
	if len(res.EvaluationErrors) > 0 || len(res.Matches) == 0 {
		t.Fatalf("errors %+v", res.EvaluationErrors)
	}
	if got := jsonText(res.Matches[0].Fields["v"]); got != "[2,3.5,1.5,61]" {
		t.Errorf("got %s; want [2,3.5,1.5,61]", got)
	}
	for _, code := range []string{`x = "a" + 1`, `x = 1 + "a"`, `x = [1] + 1`, "s = \"a\"\n    s += 1"} {
		res := evaluate(t, "if file_path == \"a.go\":\n    "+code+"\nreturn {\"matches\": []}", DefaultLimits)
		if len(res.EvaluationErrors) != 1 || res.EvaluationErrors[0].ErrorType != EvaluatorCrash ||
			!strings.Contains(res.EvaluationErrors[0].ErrorMessage, "unknown binary op") {
			t.Errorf("%s: errors %+v; want Starlark's unknown binary op", code, res.EvaluationErrors)
		}
	}
}
