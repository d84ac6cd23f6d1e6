package grammars

import (
	"context"
	"strings"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// TestMarkdownNestingGuard: tree-sitter-markdown aborts the process on a
// line holding more than 254 blocks open (seen with 300 nested quotes, 300
// list markers, 260 growing quote lines and 260 indented list levels before
// the guard). Every parse of markdown now refuses such sources with an
// error naming the line, parses the same shapes at depth 230, and refuses
// nothing real files have (long rules, blank lines of spaces).
func TestMarkdownNestingGuard(t *testing.T) {
	md, err := lang.Lookup("markdown")
	if err != nil {
		t.Fatal(err)
	}
	lines := func(n int, line func(k int) string) string {
		var b strings.Builder
		for k := range n {
			b.WriteString(line(k) + "\n")
		}
		return b.String()
	}
	shapes := map[string]func(depth int) string{
		"quotes on one line":  func(d int) string { return strings.Repeat("> ", d) + "x\n" },
		"tight quotes":        func(d int) string { return strings.Repeat(">", d) + " x\n" },
		"list markers":        func(d int) string { return strings.Repeat("- ", d) + "x\n" },
		"ordered markers":     func(d int) string { return strings.Repeat("1. ", d) + "x\n" },
		"growing quote lines": func(d int) string { return lines(d, func(k int) string { return strings.Repeat(">", k) + " q" }) },
		"indented list":       func(d int) string { return lines(d, func(k int) string { return strings.Repeat("  ", k) + "- item" }) },
		"tab-indented list": func(d int) string {
			return lines(d, func(k int) string { return strings.Repeat("\t", k/2) + "- item" })
		},
	}
	for name, shape := range shapes {
		if _, err := syntax.Parse(context.Background(), md.Grammar(), []byte(shape(230))); err != nil {
			t.Errorf("%s, depth 230: %v; want a tree", name, err)
		}
		_, err := syntax.Parse(context.Background(), md.Grammar(), []byte(shape(400)))
		if err == nil || !strings.Contains(err.Error(), "tree-sitter-markdown cannot parse more than 240") {
			t.Errorf("%s, depth 400: error %v; want the nesting refused", name, err)
		}
	}
	for name, src := range map[string]string{
		"a long thematic break":  strings.Repeat("-", 5000) + "\n",
		"a long setext rule":     "Title\n" + strings.Repeat("=", 5000) + "\n",
		"a blank line of spaces": "- a\n" + strings.Repeat(" ", 5000) + "\n- b\n",
		"a long table rule":      "| a |\n|" + strings.Repeat("-", 5000) + "|\n",
	} {
		if _, err := syntax.Parse(context.Background(), md.Grammar(), []byte(src)); err != nil {
			t.Errorf("%s: %v; want a tree", name, err)
		}
	}
}
