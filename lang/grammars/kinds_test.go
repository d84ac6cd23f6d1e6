package grammars

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/syntax"
)

// kindDifferences lists the languages whose trees still differ from
// ast-grep's on their sample, each with the reason documented in
// docs/ast-grep-differences.md. TestKindsMatchAstGrep checks that they do
// differ, so an entry goes away when the difference does.
var kindDifferences = map[string]string{
	"dart":     "ast-grep parses Dart with a newer grammar (source_file, class_declaration, member_declaration, type) that no Go module served by the proxy carries",
	"haskell":  "tree-sitter-haskell v0.23.1 spells a type synonym type_synomym (ast-grep's newer grammar: type_synonym)",
	"hcl":      "ast-grep's tree-sitter-hcl 1.1.0 leaves a trailing .attr outside the operation it belongs to; v1.2.0 (structls) nests it",
	"kotlin":   "the fwcd grammar from go-sitter-forest: import_list ends after its trailing newlines, \".\" tokens show inside identifiers, string interpolation tokens and the ? of a nullable type are anonymous, !is is one token",
	"markdown": "tree-sitter-markdown v0.5.1 has no info_string field on a fenced code block's info_string (later versions have no Go binding)",
	"swift":    "nil is an anonymous token in tree-sitter-swift 0.7.3, a named nil_literal in ast-grep's",
	"scala":    "tree-sitter-scala's public-symbol table maps the \"(\" of class parameters to the symbol named arguments; structls names nodes by public symbol",
}

// TestKindsMatchAstGrep parses a sample of every language ast-grep 0.51.1
// supports (testdata/kinds/LANG.*) with structls's grammar and compares the
// tree — every node's kind, field name and range — with what
// `ast-grep run --debug-query=cst` (and =ast, =sexp) prints for the same text,
// so that a rule written for ast-grep (kind: call_expression, has: {field:
// …}) means the same in structls.
func TestKindsMatchAstGrep(t *testing.T) {
	astGrep := testutil.AstGrep(t)
	samples, err := filepath.Glob(filepath.Join("testdata", "kinds", "*"))
	if err != nil || len(samples) == 0 {
		t.Fatalf("no samples under testdata/kinds: %v", err)
	}
	for _, sample := range samples {
		name := strings.TrimSuffix(filepath.Base(sample), filepath.Ext(sample))
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, err := lang.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			source, err := os.ReadFile(sample)
			if err != nil {
				t.Fatal(err)
			}
			tree, err := syntax.Parse(context.Background(), l.Grammar(), source)
			if err != nil {
				t.Fatal(err)
			}
			gotCST := matcher.DumpTree(tree, 0, matcher.DebugCST)
			gotSexp, err := matcher.Sexp(context.Background(), l, source)
			if err != nil {
				t.Fatal(err)
			}
			gotAST := matcher.DumpTree(tree, 0, matcher.DebugAST)
			wantCST := astGrepDebugTree(t, astGrep, l.Name, "cst", source)
			wantAST := astGrepDebugTree(t, astGrep, l.Name, "ast", source)
			wantSexp := astGrepDebugTree(t, astGrep, l.Name, "sexp", source)
			diff := firstDifference(wantCST, gotCST)
			if diff == "" && wantAST != gotAST {
				diff = "the CSTs agree but the ASTs differ:\n" + firstDifference(wantAST, gotAST)
			}
			if diff == "" && strings.TrimSpace(wantSexp) != strings.TrimSpace(gotSexp) {
				diff = "the CSTs agree but the S-expressions differ"
			}
			reason, known := kindDifferences[l.Name]
			switch {
			case diff != "" && !known:
				t.Errorf("%s: structls's tree differs from ast-grep's: %s\n(fix the grammar, or document the difference in docs/ast-grep-differences.md and kindDifferences)", sample, diff)
			case diff == "" && known:
				t.Errorf("%s: the trees now agree; remove %q from kindDifferences and docs/ast-grep-differences.md (was: %s)", sample, l.Name, reason)
			case diff != "":
				t.Logf("known difference (%s): %s", reason, diff)
			}
		})
	}
}

// astGrepDebugTree runs `ast-grep run --debug-query=FORMAT` with source as
// the pattern (ast-grep dumps the pattern text's tree before compiling it)
// and returns the dump it writes to stderr, without its heading.
func astGrepDebugTree(t *testing.T, astGrep, language, format string, source []byte) string {
	t.Helper()
	cmd := exec.Command(astGrep, "run", "--color=never", "--lang="+language, "--debug-query="+format, "--pattern="+string(source), ".")
	cmd.Dir = t.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run() // a sample is no valid pattern (several nodes): ast-grep exits 1 after the dump
	out := stderr.String()
	_, dump, found := strings.Cut(out, "Debug "+map[string]string{"cst": "CST", "sexp": "Sexp", "ast": "AST"}[format]+":\n")
	if !found {
		t.Fatalf("ast-grep printed no %s dump for %s: %s", format, language, out)
	}
	end := "\n\n" // a tree ends with a blank line
	if format == "sexp" {
		end = "\n" // an S-expression is one line
	}
	dump, _, _ = strings.Cut(dump, end)
	return dump + "\n"
}

// firstDifference describes the first line where two dumps differ, or
// returns "" when they are equal.
func firstDifference(want, got string) string {
	wantLines, gotLines := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wantLines) || i < len(gotLines); i++ {
		var w, g string
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n  ast-grep: %s\n  structls: %s", i+1, w, g)
		}
	}
	return ""
}
