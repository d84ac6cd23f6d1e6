package rules

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

const builtinCase = `-- a.js --
alert(1) // ast-grep-ignore
// ast-grep-ignore
alert(2)
let x = 1 // ast-grep-ignore: no-alert
-- b.js --
// ast-grep-ignore

alert(3)
`

// TestBuiltinSuppressionRules compares the built-in rules enabled by
// severity flags (--warning=no-suppress-all, --info=unused-suppression)
// with ast-grep's, on inline rules.
func TestBuiltinSuppressionRules(t *testing.T) {
	bin := testutil.AstGrep(t)
	rule := "id: no-alert\nlanguage: js\nrule: {pattern: alert($A)}\n"
	for _, flags := range [][]string{{"--warning=no-suppress-all"}, {"--info=unused-suppression"}, {"--error=no-suppress-all", "--hint=unused-suppression"}} {
		t.Run(strings.Join(flags, " "), func(t *testing.T) {
			dir := writeArchive(t, txtar.Parse([]byte(builtinCase)))
			cmd := exec.Command(bin, append([]string{"scan", "--json=compact", "--inline-rules", rule}, flags...)...)
			cmd.Dir = dir
			out, err := cmd.Output()
			var exit *exec.ExitError
			if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
				t.Fatalf("ast-grep: %v", err)
			}
			var raw []struct {
				File, RuleID, Severity, Message string
				Note                            *string
				Replacement                     *string
				Range                           struct {
					ByteOffset struct{ Start, End int } `json:"byteOffset"`
				}
			}
			if err := json.Unmarshal(out, &raw); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, r := range raw {
				note, fix := "", "-"
				if r.Note != nil {
					note = *r.Note
				}
				if r.Replacement != nil {
					fix = *r.Replacement
				}
				want = append(want, strings.Join([]string{r.File, r.RuleID, r.Severity, r.Message, note, fix, jsonInts(r.Range.ByteOffset.Start, r.Range.ByteOffset.End)}, "|"))
			}
			overrides := map[string]Severity{}
			for _, f := range flags {
				sev, id, _ := strings.Cut(strings.TrimPrefix(f, "--"), "=")
				overrides[id] = Severity(sev)
			}
			folder, _ := workspace.NewFolder(dir, "")
			snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
			res, err := Scan(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF8}, Query{Rules: rule, Severities: overrides})
			if err != nil || len(res.RuleErrors) > 0 {
				t.Fatal(err, res.RuleErrors)
			}
			var got []string
			for _, d := range res.Diagnostics {
				fix := "-"
				if d.Fix != nil {
					fix = d.Fix.Text
				}
				got = append(got, strings.Join([]string{d.Path, d.RuleID, string(d.Severity), d.Message, d.Note, fix, jsonInts(d.ByteRange.Start, d.ByteRange.End)}, "|"))
			}
			slices.Sort(want)
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-ast-grep +structls):\n%s", diff)
			}
		})
	}
}

func jsonInts(a, b int) string {
	out, _ := json.Marshal([]int{a, b})
	return string(out)
}
