package rewrite_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/structls/structls/atomicwrite"
	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// astGrepRewrite returns the file after `ast-grep run -p P -r R -l L -U`.
func astGrepRewrite(t *testing.T, bin string, c rewriteCase) string {
	t.Helper()
	dir := t.TempDir()
	name := "t." + c.ext
	if err := os.WriteFile(filepath.Join(dir, name), []byte(c.code), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--pattern", c.pattern, "--rewrite", c.rewrite, "-l", c.lang, "-U", name)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil && !isNoMatchExit(err) {
		t.Fatalf("ast-grep %s: %v\n%s", c.name, err, out)
	}
	out, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// isNoMatchExit: ast-grep exits 1 when nothing matched.
func isNoMatchExit(err error) bool {
	ee, ok := err.(*exec.ExitError)
	return ok && ee.ExitCode() == 1
}

// structlsRewrite previews the case's edit in a fresh workspace, writes it
// with atomicwrite.WriteFiles and returns the file.
func structlsRewrite(t *testing.T, c rewriteCase) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t."+c.ext)
	if err := os.WriteFile(path, []byte(c.code), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := rewrite.SnapshotOf(t, dir, nil)
	plan, err := rewrite.Preview(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, rewrite.Query{Ops: []rewrite.Op{{Pattern: c.pattern, Rewrite: &c.rewrite}}, Lang: c.lang})
	if err != nil {
		t.Fatalf("%s: preview: %v", c.name, err)
	}
	if err := atomicwrite.WriteFiles(context.Background(), plan, snap); err != nil {
		t.Fatalf("%s: write: %v", c.name, err)
	}
	out, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestDifferential: structls's rewrite of each case is byte-identical to
// ast-grep's, and each case changes the file (else it shows nothing).
func TestDifferential(t *testing.T) {
	bin := testutil.AstGrep(t)
	langs := map[string]bool{}
	for _, c := range differentialCases {
		langs[c.lang] = true
		t.Run(c.name, func(t *testing.T) {
			want := astGrepRewrite(t, bin, c)
			if want == c.code {
				t.Fatalf("ast-grep left the file unchanged: the case tests nothing; fix its pattern")
			}
			if got := structlsRewrite(t, c); got != want {
				t.Errorf("pattern %q rewrite %q\n got  %q\n want %q (ast-grep)", c.pattern, c.rewrite, got, want)
			}
		})
	}
	if len(differentialCases) < 50 || len(langs) < 12 {
		t.Errorf("the differential table has %d cases in %d languages; keep at least 50 in 12", len(differentialCases), len(langs))
	}
}

// TestBetterThanAstGrep: where structls deliberately differs, its output is
// the text written out, and ast-grep's is something else.
func TestBetterThanAstGrep(t *testing.T) {
	bin := testutil.AstGrep(t)
	for _, c := range betterCases {
		t.Run(c.name, func(t *testing.T) {
			if got := structlsRewrite(t, c.rewriteCase); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
			if theirs := astGrepRewrite(t, bin, c.rewriteCase); theirs == c.want {
				t.Errorf("ast-grep gives the same text: the case no longer shows a difference; move it to differentialCases")
			}
		})
	}
}
