package rules

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/structls/structls/internal/testutil"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/syntax"
)

// reported is one diagnostic, in the fields both tools print.
type reported struct {
	File, RuleID, Severity, Message, Note string
	Start, End                            int
	Replacement                           *string
	FixStart, FixEnd                      int
	Labels                                []reportedLabel
}

type reportedLabel struct {
	Style, Message string
	Start, End     int
}

// TestDifferential runs each testdata/diff/*.txtar case through ast-grep
// (scan --json, then scan -U) and through Check/FixEdits, and compares the
// diagnostics and the fixed files. A case holds rules.yml (inline rules) or
// an sgconfig.yml project, and the files to scan.
func TestDifferential(t *testing.T) {
	bin := testutil.AstGrep(t)
	cases, _ := filepath.Glob("testdata/diff/*.txtar")
	if len(cases) == 0 {
		t.Fatal("no cases in testdata/diff")
	}
	for _, path := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dir := writeArchive(t, ar)
			want, wantFixed := runAstGrep(t, bin, dir, ar)
			got, gotFixed := runStructls(t, dir, ar)
			t.Logf("ast-grep: %d diagnostics", len(want))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics differ from ast-grep's (-ast-grep +structls):\n%s", diff)
			}
			if diff := cmp.Diff(wantFixed, gotFixed); diff != "" {
				t.Errorf("fixed files differ from ast-grep scan -U's (-ast-grep +structls):\n%s", diff)
			}
		})
	}
}

func writeArchive(t *testing.T, ar *txtar.Archive) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range ar.Files {
		p := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// isConfigFile: files of a case that are not scanned.
func isConfigFile(name string) bool {
	return name == "rules.yml" || name == "sgconfig.yml" || strings.HasPrefix(name, "rules/") || strings.HasPrefix(name, "utils/")
}

func sourceFiles(ar *txtar.Archive) []string {
	var out []string
	for _, f := range ar.Files {
		if !isConfigFile(f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

func inlineRules(ar *txtar.Archive) string {
	for _, f := range ar.Files {
		if f.Name == "rules.yml" {
			return string(f.Data)
		}
	}
	return ""
}

// runAstGrep returns ast-grep's diagnostics and the files after scan -U.
func runAstGrep(t *testing.T, bin, dir string, ar *txtar.Archive) ([]reported, map[string]string) {
	t.Helper()
	args := []string{"scan", "--json=compact"}
	if rules := inlineRules(ar); rules != "" {
		args = append(args, "--inline-rules", rules)
	}
	args = append(args, sourceFiles(ar)...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("ast-grep %v: %v\n%s", args, err, stderrOf(err))
	}
	var raw []struct {
		Text  string `json:"text"`
		Range struct {
			ByteOffset struct{ Start, End int } `json:"byteOffset"`
		} `json:"range"`
		File               string  `json:"file"`
		Replacement        *string `json:"replacement"`
		ReplacementOffsets *struct{ Start, End int }
		RuleID             string  `json:"ruleId"`
		Severity           string  `json:"severity"`
		Note               *string `json:"note"`
		Message            string  `json:"message"`
		Labels             []struct {
			Style   string  `json:"style"`
			Message *string `json:"message"`
			Range   struct {
				ByteOffset struct{ Start, End int } `json:"byteOffset"`
			} `json:"range"`
		} `json:"labels"`
	}
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatalf("ast-grep output: %v\n%s", err, out)
	}
	var rep []reported
	for _, r := range raw {
		d := reported{File: r.File, RuleID: r.RuleID, Severity: r.Severity, Message: r.Message, Start: r.Range.ByteOffset.Start, End: r.Range.ByteOffset.End,
			Replacement: r.Replacement}
		if r.Note != nil {
			d.Note = *r.Note
		}
		if r.ReplacementOffsets != nil {
			d.FixStart, d.FixEnd = r.ReplacementOffsets.Start, r.ReplacementOffsets.End
		}
		for _, l := range r.Labels {
			rl := reportedLabel{Style: l.Style, Start: l.Range.ByteOffset.Start, End: l.Range.ByteOffset.End}
			if l.Message != nil {
				rl.Message = *l.Message
			}
			d.Labels = append(d.Labels, rl)
		}
		rep = append(rep, d)
	}
	sortReported(rep)

	fixDir := writeArchive(t, ar)
	args = []string{"scan", "-U"}
	if rules := inlineRules(ar); rules != "" {
		args = append(args, "--inline-rules", rules)
	}
	args = append(args, sourceFiles(ar)...)
	cmd = exec.Command(bin, args...)
	cmd.Dir = fixDir
	if _, err := cmd.Output(); err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("ast-grep %v: %v\n%s", args, err, stderrOf(err))
	}
	return rep, readSources(t, fixDir, ar)
}

func stderrOf(err error) string {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(exit.Stderr)
	}
	return ""
}

func readSources(t *testing.T, dir string, ar *txtar.Archive) map[string]string {
	out := map[string]string{}
	for _, name := range sourceFiles(ar) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(b)
	}
	return out
}

// sortReported orders diagnostics, and the labels of a labels map (which
// ast-grep keeps in a hash map, so its order varies from run to run).
func sortReported(rep []reported) {
	for _, r := range rep {
		slices.SortStableFunc(r.Labels, func(a, b reportedLabel) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	}
	slices.SortStableFunc(rep, func(a, b reported) int {
		return strings.Compare(fmt.Sprintf("%s\x00%09d\x00%09d\x00%s\x00%s", a.File, a.Start, a.End, a.RuleID, a.Message),
			fmt.Sprintf("%s\x00%09d\x00%09d\x00%s\x00%s", b.File, b.Start, b.End, b.RuleID, b.Message))
	})
}

// runStructls returns this package's diagnostics and fixed files.
func runStructls(t *testing.T, dir string, ar *txtar.Archive) ([]reported, map[string]string) {
	t.Helper()
	set := loadCaseRules(t, dir, ar)
	var rep []reported
	fixed := map[string]string{}
	for _, name := range sourceFiles(ar) {
		abs := filepath.Join(dir, name)
		src, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		fixed[name] = string(src)
		l := set.Language(abs)
		if l == nil {
			continue
		}
		tree, err := syntax.Parse(context.Background(), l.Grammar(), src)
		if err != nil {
			t.Fatal(err)
		}
		findings, err := set.Check(context.Background(), abs, l, tree)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range findings {
			d := reported{File: name, RuleID: f.RuleID, Severity: string(f.Severity), Message: f.Message, Note: f.Note, Start: f.Start, End: f.End}
			if len(f.Fixes) > 0 {
				text := f.Fixes[0].Text
				d.Replacement, d.FixStart, d.FixEnd = &text, f.Fixes[0].Start, f.Fixes[0].End
			}
			for _, l := range f.Labels {
				d.Labels = append(d.Labels, reportedLabel{Style: l.Style, Message: l.Message, Start: l.Start, End: l.End})
			}
			rep = append(rep, d)
		}
		fixed[name] = applyEdits(src, FixEdits(findings))
	}
	sortReported(rep)
	return rep, fixed
}

func loadCaseRules(t *testing.T, dir string, ar *txtar.Archive) *RuleSet {
	t.Helper()
	var project *Project
	if cfg, _ := FindConfig(dir); cfg != "" && strings.HasPrefix(cfg, dir) {
		var err error
		if project, err = LoadProject(cfg); err != nil {
			t.Fatal(err)
		}
	}
	if rules := inlineRules(ar); rules != "" {
		set, err := ParseRules("rules.yml", []byte(rules), Options{BaseDir: dir, Project: project})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	if project == nil {
		t.Fatal("the case has neither rules.yml nor sgconfig.yml")
	}
	return project.Rules
}

func applyEdits(src []byte, edits []rewrite.TextEdit) string {
	var b strings.Builder
	at := 0
	for _, e := range edits {
		b.Write(src[at:e.Start])
		b.WriteString(e.Text)
		at = e.End
	}
	b.Write(src[at:])
	return b.String()
}
