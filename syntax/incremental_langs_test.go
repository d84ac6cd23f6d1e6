package syntax_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// TestIncrementalReparseLanguages checks the incremental reparse property
// (see TestIncrementalReparseMatchesFullParse) in grammars unlike Go's:
// Python's indentation and JavaScript's template strings come from external
// scanners, whose state incremental parsing must restore exactly; C has a
// preprocessor, Rust macros, Java and TSX are real files of the test corpora.
func TestIncrementalReparseLanguages(t *testing.T) {
	for _, tt := range []struct {
		lang, path string
		seeds      uint64 // without the fallback on syntax errors, seed 4 fails in Java, 12 in TSX
	}{
		{"python", moduleDir(t, "github.com/tree-sitter/tree-sitter-python") + "/test/corpus/statements.txt", 4},
		{"javascript", moduleDir(t, "github.com/tree-sitter/tree-sitter-javascript") + "/test/corpus/literals.txt", 4},
		{"c", moduleDir(t, "github.com/tree-sitter/tree-sitter-c") + "/test/corpus/preprocessor.txt", 4},
		{"rust", moduleDir(t, "github.com/tree-sitter/tree-sitter-rust") + "/test/corpus/macros.txt", 4},
		{"java", "../testdata/corpus/java/Inventory.java", 6},
		{"tsx", "../testdata/corpus/tsx/TodoList.tsx", 14},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			l, err := lang.Lookup(tt.lang)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			seed := raw
			if filepath.Ext(tt.path) == ".txt" {
				seed = corpusCode(string(raw))
			}
			for rngSeed := range tt.seeds {
				syntax.CheckIncremental(t, l.Grammar(), seed, rngSeed, 40)
			}
		})
	}
}

// corpusCode returns the code examples of a tree-sitter test corpus file
// (each between its "===" title block and its "---" line), joined, at most
// 8 KB of them.
func corpusCode(corpus string) []byte {
	var b strings.Builder
	rules, inCode := 0, false // the "===" lines seen of the current title block
	for _, line := range strings.Split(corpus, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case len(trimmed) >= 3 && strings.Trim(trimmed, "=") == "":
			rules++
			inCode = rules%2 == 0
		case len(trimmed) >= 3 && strings.Trim(trimmed, "-") == "" && inCode:
			inCode = false
			b.WriteString("\n")
			if b.Len() > 8<<10 {
				return []byte(b.String())
			}
		case inCode:
			b.WriteString(line + "\n")
		}
	}
	return []byte(b.String())
}
