package tree_sitter_swift

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// TestLanguageParses loads the grammar and parses Swift that uses both
// halves of it: parser.c's tables and scanner.c's external tokens (the
// custom operator and the multi-line string).
func TestLanguageParses(t *testing.T) {
	language := sitter.NewLanguage(Language())
	parser := sitter.NewParser()
	defer parser.Close()
	if err := parser.SetLanguage(language); err != nil {
		t.Fatalf("SetLanguage: %v", err)
	}
	src := []byte("infix operator <~>\nlet s = \"\"\"\n  two\n  lines\n  \"\"\"\nfunc f(a: Int) -> Int { return a <~> 1 }\n")
	tree := parser.Parse(src, nil)
	defer tree.Close()
	root := tree.RootNode()
	if root.Kind() != "source_file" || root.HasError() {
		t.Fatalf("parsed to %s (error: %v), want a source_file without error:\n%s", root.Kind(), root.HasError(), root.ToSexp())
	}
	for _, kind := range []string{"multi_line_string_literal", "function_declaration", "infix_expression"} {
		if !strings.Contains(root.ToSexp(), "("+kind) {
			t.Errorf("no %s in %s", kind, root.ToSexp())
		}
	}
}

// TestCompilesWithoutWarnings compiles what cgo compiles for this package —
// the cgo preamble of each Go file and each C file, with the package's
// CFLAGS — and wants the C compiler silent: a cold build prints every
// warning it gives (the module's own binding put parser.c and scanner.c in
// one preamble, where gcc warned "TOKEN_COUNT" redefined).
func TestCompilesWithoutWarnings(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the 20 MB parser.c")
	}
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	cc := strings.Fields(goEnv(t, "CC"))
	if len(cc) == 0 {
		t.Fatal("go env CC is empty")
	}
	units := append([]string{}, pkg.CFiles...)
	for _, name := range pkg.CgoFiles {
		preamble := cgoPreamble(t, name)
		file := filepath.Join(t.TempDir(), name+".preamble.c")
		if err := os.WriteFile(file, []byte(preamble), 0o644); err != nil {
			t.Fatal(err)
		}
		units = append(units, file)
	}
	for _, unit := range units {
		args := append(append(append([]string{}, cc[1:]...), pkg.CgoCFLAGS...), "-I", ".", "-fsyntax-only", unit)
		out, err := exec.Command(cc[0], args...).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("%s %s: %v\n%s", cc[0], strings.Join(args, " "), err, out)
		}
	}
	if len(pkg.CFiles) != 2 {
		t.Errorf("C files %v, want parser.c and scanner.c, each its own translation unit", pkg.CFiles)
	}
}

// cgoPreamble returns the comment above import "C" in the Go file name, its #cgo lines left out.
func cgoPreamble(t *testing.T, name string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ParseComments|parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			continue
		}
		for _, spec := range gen.Specs {
			imp := spec.(*ast.ImportSpec)
			doc := imp.Doc
			if !gen.Lparen.IsValid() {
				doc = gen.Doc // import "C" alone: the comment is the declaration's
			}
			if path, _ := strconv.Unquote(imp.Path.Value); path != "C" || doc == nil {
				continue
			}
			var lines []string
			for _, line := range strings.Split(doc.Text(), "\n") {
				if !strings.HasPrefix(strings.TrimSpace(line), "#cgo") {
					lines = append(lines, line)
				}
			}
			return strings.Join(lines, "\n")
		}
	}
	t.Fatalf("%s has no import \"C\" with a preamble", name)
	return ""
}

func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out))
}
