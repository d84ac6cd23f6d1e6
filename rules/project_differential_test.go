package rules

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestProjectDifferential runs the rule project of testdata/sgproject (10
// languages; relational rules with stopBy; global and local utils,
// `matches`, transforms, fixes; keys ast-grep ignores; test cases as a
// block scalar ending the file without a newline and over 1,024
// characters; snapshots written by ast-grep 0.51.1) with ast-grep and with
// structls: the test verdicts are equal; after `test --update-all` by
// either tool the other's `test` passes, and the snapshot files the two
// write are byte-identical; and `scan` reports the same findings, labels
// and fixes.
func TestProjectDifferential(t *testing.T) {
	bin := testutil.AstGrep(t)
	checkedIn := copyProject(t)
	want := astGrepVerdicts(t, bin, checkedIn, false)
	if got := structlsVerdicts(t, checkedIn, false); !cmp.Equal(want, got) {
		t.Errorf("test verdicts differ (-ast-grep +structls):\n%s", cmp.Diff(want, got))
	}
	if slices.Contains(mapsValues(want), false) {
		t.Errorf("ast-grep fails some tests of the checked-in project: %v", want)
	}

	byAstGrep, byStructls := copyProject(t), copyProject(t)
	astGrepVerdicts(t, bin, byAstGrep, true)
	structlsVerdicts(t, byStructls, true)
	for id, ok := range structlsVerdicts(t, byAstGrep, false) {
		if !ok {
			t.Errorf("structls test fails %s on the snapshots ast-grep wrote", id)
		}
	}
	for id, ok := range astGrepVerdicts(t, bin, byStructls, false) {
		if !ok {
			t.Errorf("ast-grep test fails %s on the snapshots structls wrote", id)
		}
	}
	snaps, _ := filepath.Glob(filepath.Join(byAstGrep, "tests", "__snapshots__", "*.yml"))
	if len(snaps) != len(want) {
		t.Errorf("ast-grep wrote %d snapshot files; want one per rule (%d)", len(snaps), len(want))
	}
	for _, a := range snaps {
		theirs, _ := os.ReadFile(a)
		ours, err := os.ReadFile(filepath.Join(byStructls, "tests", "__snapshots__", filepath.Base(a)))
		if err != nil {
			t.Errorf("structls wrote no %s: %v", filepath.Base(a), err)
			continue
		}
		if !bytes.Equal(theirs, ours) {
			t.Errorf("%s differs (-ast-grep +structls):\n%s", filepath.Base(a), cmp.Diff(string(theirs), string(ours)))
		}
	}

	scanned := astGrepScan(t, bin, checkedIn)
	if len(scanned) < len(want) {
		t.Errorf("ast-grep scan found %d findings; want one at least per rule (%d)", len(scanned), len(want))
	}
	if diff := cmp.Diff(scanned, structlsScan(t, checkedIn)); diff != "" {
		t.Errorf("scan findings differ (-ast-grep +structls):\n%s", diff)
	}
}

// copyProject copies testdata/sgproject to a new directory.
func copyProject(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS("testdata/sgproject")); err != nil {
		t.Fatal(err)
	}
	return dst
}

func mapsValues(m map[string]bool) []bool {
	var out []bool
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// astGrepVerdict reads a line of `ast-grep test`: PASS or FAIL and the id.
var astGrepVerdict = regexp.MustCompile(`(?m)^(PASS|FAIL) (\S+)`)

// astGrepVerdicts runs `ast-grep test` (with -U: --update-all) in dir.
func astGrepVerdicts(t *testing.T, bin, dir string, update bool) map[string]bool {
	t.Helper()
	args := []string{"test"}
	if update {
		args = append(args, "-U")
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("ast-grep test: %v", err)
	}
	verdicts := map[string]bool{}
	for _, m := range astGrepVerdict.FindAllStringSubmatch(string(out), -1) {
		verdicts[m[2]] = m[1] == "PASS"
	}
	if len(verdicts) == 0 {
		t.Fatalf("ast-grep test ran no test:\n%s", out)
	}
	return verdicts
}

// structlsVerdicts runs the project's tests with RunTests.
func structlsVerdicts(t *testing.T, dir string, update bool) map[string]bool {
	t.Helper()
	p, err := LoadProject(filepath.Join(dir, "sgconfig.yml"))
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.RunTests(context.Background(), TestOptions{UpdateAll: update})
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]bool{}
	for _, r := range results {
		verdicts[r.ID] = r.Passed()
		if !r.Passed() {
			t.Logf("structls: %s %s %v", r.ID, r.Marks, r.Details)
		}
	}
	return verdicts
}

// projectFinding is a scan finding with its labels and fix.
type projectFinding struct {
	File, RuleID     string
	Start, End       int
	Labels           []string // style@start-end
	Fix              *string
	FixStart, FixEnd int // the range the fix replaces (expandStart/expandEnd widen it)
}

func astGrepScan(t *testing.T, bin, dir string) []projectFinding {
	t.Helper()
	cmd := exec.Command(bin, "scan", "--json=compact", "src")
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("ast-grep scan: %v\n%s", err, stderrOf(err))
	}
	var raw []struct {
		File, RuleID       string
		Replacement        *string
		ReplacementOffsets *struct{ Start, End int }
		Range              struct{ ByteOffset struct{ Start, End int } }
		Labels             []struct {
			Style string
			Range struct{ ByteOffset struct{ Start, End int } }
		}
	}
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatalf("ast-grep scan output: %v\n%s", err, out)
	}
	var found []projectFinding
	for _, r := range raw {
		f := projectFinding{File: strings.TrimPrefix(filepath.ToSlash(r.File), "src/"), RuleID: r.RuleID, Start: r.Range.ByteOffset.Start, End: r.Range.ByteOffset.End, Fix: r.Replacement}
		if r.ReplacementOffsets != nil {
			f.FixStart, f.FixEnd = r.ReplacementOffsets.Start, r.ReplacementOffsets.End
		}
		for _, l := range r.Labels {
			f.Labels = append(f.Labels, labelKey(l.Style, l.Range.ByteOffset.Start, l.Range.ByteOffset.End))
		}
		found = append(found, f)
	}
	return sortFindings(found)
}

func structlsScan(t *testing.T, dir string) []projectFinding {
	t.Helper()
	folder, err := workspace.NewFolder(filepath.Join(dir, "src"), "")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	res, err := Scan(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF8}, Query{Config: filepath.Join(dir, "sgconfig.yml")})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RuleErrors) > 0 {
		t.Fatalf("rule errors: %+v", res.RuleErrors)
	}
	var found []projectFinding
	for _, d := range res.Diagnostics {
		f := projectFinding{File: filepath.ToSlash(d.Path), RuleID: d.RuleID, Start: d.ByteRange.Start, End: d.ByteRange.End}
		if d.Fix != nil {
			text := d.Fix.Text
			f.Fix, f.FixStart, f.FixEnd = &text, d.Fix.ByteRange.Start, d.Fix.ByteRange.End
		}
		for _, l := range d.Labels {
			f.Labels = append(f.Labels, labelKey(l.Style, l.ByteRange.Start, l.ByteRange.End))
		}
		found = append(found, f)
	}
	return sortFindings(found)
}

func labelKey(style string, start, end int) string {
	return style + "@" + strings.Join([]string{itoa(start), itoa(end)}, "-")
}

func itoa(n int) string { return strconv.Itoa(n) }

func sortFindings(found []projectFinding) []projectFinding {
	slices.SortFunc(found, func(a, b projectFinding) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return strings.Compare(a.RuleID, b.RuleID)
	})
	return found
}
