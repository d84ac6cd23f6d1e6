package rewrite_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/structls/structls/atomicwrite"
	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// rewriteCorpus is real code (the examples a grammar module ships, pinned by
// go.sum) and rewrites to run over it.
type rewriteCorpus struct {
	lang, module, ext string
	rewrites          [][2]string // pattern, rewrite
}

var rewriteCorpora = []rewriteCorpus{
	{"python", "github.com/tree-sitter/tree-sitter-python", "py", [][2]string{
		{"if $C:\n    $$$B", "if not ($C):\n    pass\nelse:\n    $$$B"},
		{"def $F($$$A):\n    $$$B", "@decorated\ndef $F($$$A):\n    $$$B"},
		{"$O.$M($$$A)", "$O.$M(\n    $$$A\n)"},
		{"return $X", ""},
		{"[$$$A]", "list((\n    $$$A,\n))"},
	}},
	{"javascript", "github.com/tree-sitter/tree-sitter-javascript", "js", [][2]string{
		{"if ($C) { $$$B }", "if (!($C)) {\n  return\n}\n$$$B"},
		{"$F($$$A)", "$F(\n$$$A)"},
		{"function $F($$$P) { $$$B }", "const $F = ($$$P) => {\n  $$$B\n}"},
		{"{ $$$B }", "{\n// x\n$$$B\n}"},
	}},
	{"typescript", "github.com/tree-sitter/tree-sitter-typescript", "ts", [][2]string{
		{"$O.$M($A)", "$M($O,\n    $A)"},
		{"return $X;", "return (\n  $X\n);"},
	}},
	{"rust", "github.com/tree-sitter/tree-sitter-rust", "rs", [][2]string{
		{"if $C { $$$B }", "if !($C) {\n    $$$B\n}"},
		{"let $A = $B;", "let $A =\n    $B;"},
		{"match $X { $$$A }", "match $X {\n    $$$A\n}"},
	}},
}

// TestCorpusDifferential rewrites real code with both tools: every file must
// come out byte-identical, except for the documented differences
// (docs/ast-grep-differences.md): lines holding only whitespace (ast-grep
// indents blank lines, structls leaves them empty) and the line breaks of
// CRLF files are compared loosely, and tab-indented files and files with
// syntax errors (which structls never rewrites) are left out.
func TestCorpusDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus runs take a while; run without -short")
	}
	bin := testutil.AstGrep(t)
	for _, c := range rewriteCorpora {
		for _, rw := range c.rewrites {
			t.Run(c.lang+"/"+rw[0], func(t *testing.T) {
				src := moduleExamples(t, c.module, c.ext)
				theirs, ours := copyDir(t, src), copyDir(t, src)
				cmd := exec.Command(bin, "run", "--pattern", rw[0], "--rewrite", rw[1], "-l", c.lang, "-U", ".")
				cmd.Dir = theirs
				if out, err := cmd.CombinedOutput(); err != nil && !isNoMatchExit(err) {
					t.Fatalf("ast-grep: %v\n%s", err, out)
				}
				snap := rewrite.SnapshotOf(t, ours, nil)
				plan, err := rewrite.Preview(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF8}, rewrite.Query{Ops: []rewrite.Op{{Pattern: rw[0], Rewrite: &rw[1]}}, Lang: c.lang})
				if err != nil {
					t.Fatal(err)
				}
				if err := atomicwrite.WriteFiles(context.Background(), plan, snap); err != nil {
					t.Fatal(err)
				}
				skipped := map[string]bool{}
				for _, p := range plan.Result().ParseErrors {
					skipped[p.Path] = true
				}
				entries, _ := os.ReadDir(ours)
				compared := 0
				for _, e := range entries {
					original, _ := os.ReadFile(filepath.Join(src, e.Name()))
					if skipped[e.Name()] || tabIndented.Match(original) {
						continue
					}
					a, _ := os.ReadFile(filepath.Join(theirs, e.Name()))
					b, _ := os.ReadFile(filepath.Join(ours, e.Name()))
					if got, want := loosely(b), loosely(a); got != want {
						t.Errorf("%s differs from ast-grep's rewrite:\n%s", e.Name(), firstDifference(want, got))
					}
					compared++
				}
				if plan.Result().TotalReplacements == 0 || compared == 0 {
					t.Errorf("no replacement in %d files compared: the case tests nothing", compared)
				}
				t.Logf("%d replacements in %d files, %d files compared", plan.Result().TotalReplacements, plan.Result().FilesTouched, compared)
			})
		}
	}
}

var (
	whitespaceOnlyLine = regexp.MustCompile(`(?m)^[ \t]+$`)
	tabIndented        = regexp.MustCompile(`(?m)^ *\t`)
)

// loosely turns CRLF line breaks into LF and empties the lines that hold
// only spaces and tabs.
func loosely(b []byte) string {
	return whitespaceOnlyLine.ReplaceAllString(strings.ReplaceAll(string(b), "\r\n", "\n"), "")
}

// firstDifference shows the first line where two texts differ, with context.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			from := max(0, i-2)
			return "ast-grep:\n" + strings.Join(w[from:min(len(w), i+3)], "\n") + "\nstructls:\n" + strings.Join(g[from:min(len(g), i+3)], "\n")
		}
	}
	return ""
}

// moduleExamples copies a module's example files with the extension ext
// flat into a temporary directory.
func moduleExamples(t *testing.T, module, ext string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		t.Fatalf("locating %s: %v", module, err)
	}
	dst := t.TempDir()
	err = filepath.WalkDir(strings.TrimSpace(string(out)), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(path, "example") || !strings.HasSuffix(path, "."+ext) {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil {
			err = os.WriteFile(filepath.Join(dst, d.Name()), data, 0o644)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// copyDir copies the files of a flat directory into a new one.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err == nil {
			err = os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dst
}
