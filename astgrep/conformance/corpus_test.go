package conformance

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// corpus is a directory of real code in one language and patterns to run on it.
type corpus struct {
	name, lang string
	dir        func(t *testing.T) string
	patterns   []string
}

// moduleExamples copies the example sources a grammar module ships (pinned
// by go.sum, so the same bytes everywhere) into a temporary directory.
func moduleExamples(module string, exts ...string) func(t *testing.T) string {
	return func(t *testing.T) string {
		t.Helper()
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
		if err != nil {
			t.Fatalf("locating %s: %v", module, err)
		}
		src := strings.TrimSpace(string(out))
		dst := t.TempDir()
		err = filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.Contains(path, "example") || !hasExt(path, exts) {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dst, d.Name()), data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
		return dst
	}
}

func hasExt(path string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(path, "."+e) {
			return true
		}
	}
	return false
}

func fixed(rel string) func(t *testing.T) string {
	return func(t *testing.T) string {
		_, file, _, _ := runtime.Caller(0)
		return filepath.Join(filepath.Dir(file), "..", "..", rel)
	}
}

var corpora = []corpus{
	{"go-stdlib", "go", func(*testing.T) string { return filepath.Join(runtime.GOROOT(), "src") }, []string{
		"if err != nil { return $$$ }", "for $K, $V := range $X { $$$ }", "defer $F.Close()", "$A := make($T, $N)",
		"errors.New($MSG)", "func ($R *$T) String() string { $$$ }", "go func() { $$$ }()", "switch $X := $Y.(type) { $$$ }",
	}},
	{"python", "python", moduleExamples("github.com/tree-sitter/tree-sitter-python", "py"), []string{
		"print($$$A)", "self.$A = $B", "return $A", "for $X in $Y:\n    $$$B", "if not $A:\n    $$$B", "while $C:\n    $$$B",
		"import $M", "$A.append($B)", "lambda $$$A: $B", "raise $E",
	}},
	{"javascript", "javascript", moduleExamples("github.com/tree-sitter/tree-sitter-javascript", "js"), []string{
		"function $F($$$P) { $$$B }", "$A === undefined", "typeof $X === $T", "return $A;", "var $X = $Y;",
		"if ($C) { $$$B }", "$O.call($$$A)", "$A.length",
	}},
	{"typescript", "typescript", moduleExamples("github.com/tree-sitter/tree-sitter-typescript", "ts"), []string{
		"function $F($$$P): $R { $$$B }", "if ($C) { $$$B }", "return $A;", "$A as $T", "const $X = $Y;",
		"$A.kind === $B", "new $C($$$A)", "switch ($E) { $$$ }",
	}},
	{"tsx", "tsx", fixed("testdata/corpus/tsx"), []string{
		"<$T $$$P />", "useState($A)", "const $X = $Y;", "($A) => $B", "<li $$$P>$$$C</li>", "$A.map($F)",
		"export default $X;", "if ($C) return;",
	}},
	{"rust", "rust", moduleExamples("github.com/tree-sitter/tree-sitter-rust", "rs"), []string{
		"fn $F($$$P) { $$$B }", "let $X = $Y;", "$A.iter()", "&mut $A", "match $E { $$$ }", "impl $T { $$$ }",
		"Some($A)", "$A.clone()", "pub struct $S { $$$ }",
	}},
	{"java", "java", fixed("testdata/corpus/java"), []string{
		"System.out.println($A)", "if ($C) { $$$B }", "return $A;", "for ($T $X : $Y) { $$$B }", "new $C($$$A)",
		"$A.add($B)", "$X++;", "throw new $E($M);",
	}},
	{"c", "c", moduleExamples("github.com/tree-sitter/tree-sitter-c", "c"), []string{
		"if ($C) { $$$B }", "return $A;", "$A = $B;", "malloc($S)", "for ($I; $C; $U) { $$$B }", "sizeof($T)",
		"$P->$F", "#include $H",
	}},
	{"cpp", "cpp", moduleExamples("github.com/tree-sitter/tree-sitter-cpp", "cc", "h"), []string{
		"return $A;", "if ($C) { $$$B }", "$A = $B;", "$A->$B", "$A.$B($$$C)", "namespace $N { $$$ }",
		"#include $H", "$A == $B",
	}},
}

// TestCorpora runs patterns over real code with both tools: the match sets
// must be identical (or, for a pattern structls retries in a context, ast-grep
// must find nothing there).
func TestCorpora(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus runs take a minute; run without -short")
	}
	bin := testutil.AstGrep(t)
	for _, c := range corpora {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			total := 0
			for _, p := range c.patterns {
				theirs := astGrepDir(t, bin, dir, c.lang, p)
				ours, warnings := structlsDir(t, dir, c.lang, p)
				total += len(ours)
				if retried(warnings) {
					if len(theirs) != 0 || len(ours) == 0 {
						t.Errorf("%q retried (%q): ast-grep %d matches, structls %d", p, warnings, len(theirs), len(ours))
					}
					t.Logf("%-40q ast-grep %5d, structls %5d (retried in a function body: a deliberate improvement)", p, len(theirs), len(ours))
					continue
				}
				if diff := cmpLists(theirs, ours); diff != "" {
					t.Errorf("%s %q:\n%s", c.name, p, truncate(diff, 3000))
					continue
				}
				if len(theirs) == 0 {
					t.Errorf("%q finds nothing in the %s corpus: the case tests nothing", p, c.name)
				}
				t.Logf("%-40q %5d matches agree", p, len(ours))
			}
			t.Logf("%s: %d matches over %d patterns", c.name, total, len(c.patterns))
		})
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// astGrepDir runs ast-grep over a directory (dot files skipped, ignore
// files not applied, as structlsDir is told) and returns "file [a,b) meta" lines.
func astGrepDir(t *testing.T, bin, dir, lang, pattern string) []string {
	t.Helper()
	cmd := exec.Command(bin, "run", "--pattern="+pattern, "-l", lang, "--json=stream", "--no-ignore=vcs", "--no-ignore=dot", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() != 1 {
		t.Fatalf("ast-grep %q: %v\n%s", pattern, err, ee.Stderr)
	}
	var lines []string
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var m struct {
			File  string
			Range struct {
				ByteOffset struct{ Start, End int } `json:"byteOffset"`
			}
		}
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, result{m.Range.ByteOffset.Start, m.Range.ByteOffset.End, filepath.ToSlash(m.File)}.String())
	}
	sort.Strings(lines)
	return lines
}

func structlsDir(t *testing.T, dir, lang, pattern string) ([]string, []string) {
	t.Helper()
	f, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{f}, workspace.Settings{MaxFileSize: 1 << 30}, nil)
	no, zero := false, 0
	res, err := astgrep.Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF8}, astgrep.Query{Pattern: pattern, Lang: lang,
		Scope: workspace.Scope{Hidden: &no, Gitignore: &no}, Limit: &zero})
	if err != nil {
		t.Fatalf("structls %q: %v", pattern, err)
	}
	var lines []string
	for _, m := range res.Matches {
		lines = append(lines, result{m.ByteRange.Start, m.ByteRange.End, m.Path}.String())
	}
	sort.Strings(lines)
	return lines, res.Warnings
}
