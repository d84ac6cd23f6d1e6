package rules

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// corpusDirs are the trees TestRuleSetCorpus scans: a few packages of the
// Go standard library and of Python's, and the TypeScript corpora by
// default; the whole of both libraries with STRUCTLS_CORPUS=full (minutes).
func corpusDirs(t *testing.T) []string {
	goroot := runtime.GOROOT()
	dirs := []string{filepath.Join(goroot, "src", "net", "http"), filepath.Join(goroot, "src", "go"), "../testdata/corpus", "testdata/tscorpus"}
	if os.Getenv("STRUCTLS_CORPUS") == "full" {
		dirs = []string{filepath.Join(goroot, "src")}
		if py, _ := filepath.Glob("/usr/lib/python3.*"); len(py) > 0 {
			dirs = append(dirs, py[0])
		}
		dirs = append(dirs, "../testdata/corpus", "testdata/tscorpus")
	} else if py, _ := filepath.Glob("/usr/lib/python3.*/json"); len(py) > 0 {
		dirs = append(dirs, py[0], filepath.Join(filepath.Dir(py[0]), "email"))
	}
	return dirs
}

// TestRuleSetCorpus runs the 20-rule set of testdata/ruleset (Go, Python,
// TypeScript) over real code with ast-grep and with Scan, and compares every
// finding: file, rule, byte range, message, severity, fix.
func TestRuleSetCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus comparison: slow")
	}
	bin := testutil.AstGrep(t)
	config, err := filepath.Abs("testdata/ruleset/sgconfig.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range corpusDirs(t) {
		dir, _ = filepath.Abs(dir)
		if _, err := os.Stat(dir); err != nil {
			t.Logf("skipping %s: %v", dir, err)
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want := astGrepCorpus(t, bin, config, dir)
			got := structlsCorpus(t, config, dir)
			t.Logf("%s: ast-grep %d findings, structls %d", dir, len(want), len(got))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings differ (-ast-grep +structls):\n%s", diff)
			}
		})
	}
}

type corpusFinding struct {
	File, RuleID, Severity, Message string
	Start, End                      int
	Fix                             *string
}

func astGrepCorpus(t *testing.T, bin, config, dir string) []corpusFinding {
	cmd := exec.Command(bin, "scan", "-c", config, "--json=stream", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("ast-grep: %v\n%s", err, stderrOf(err))
	}
	var found []corpusFinding
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r struct {
			File, RuleID, Severity, Message string
			Replacement                     *string
			Range                           struct {
				ByteOffset struct{ Start, End int } `json:"byteOffset"`
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		found = append(found, corpusFinding{File: strings.TrimPrefix(r.File, "./"), RuleID: r.RuleID, Severity: r.Severity, Message: r.Message,
			Start: r.Range.ByteOffset.Start, End: r.Range.ByteOffset.End, Fix: r.Replacement})
	}
	sortCorpus(found)
	return found
}

func structlsCorpus(t *testing.T, config, dir string) []corpusFinding {
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	res, err := Scan(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF8}, Query{Config: config})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RuleErrors) > 0 {
		t.Fatalf("rule errors: %+v", res.RuleErrors)
	}
	var found []corpusFinding
	for _, d := range res.Diagnostics {
		f := corpusFinding{File: d.Path, RuleID: d.RuleID, Severity: string(d.Severity), Message: d.Message, Start: d.ByteRange.Start, End: d.ByteRange.End}
		if d.Fix != nil {
			text := d.Fix.Text
			f.Fix = &text
		}
		found = append(found, f)
	}
	sortCorpus(found)
	return found
}

func sortCorpus(found []corpusFinding) {
	slices.SortFunc(found, func(a, b corpusFinding) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		if a.End != b.End {
			return a.End - b.End
		}
		return strings.Compare(a.RuleID, b.RuleID)
	})
}
