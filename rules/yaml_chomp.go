package rules

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
)

// The YAML library reads a block scalar with the strip chomping indicator
// (`|-`, `>-`) without the spaces that end its last line, where YAML (and
// ast-grep) keep them: ast-grep writes a snapshot value that ends without
// a line break but with spaces (`fixed:` of a case whose last line ends in
// spaces, a label folded with `>-`) exactly so. To read them right, such a
// header is given to the library as clip (`|`, `>`, the same length, so
// every position stays), and the line break clip keeps is taken off again.

// clipStripHeaders returns src with every strip chomping indicator of f's
// block scalars turned into clip, and the line and column of each header
// changed; nil when there is none.
func clipStripHeaders(src []byte, f *ast.File) ([]byte, map[[2]int]bool) {
	var changed map[[2]int]bool
	var out []byte
	for _, n := range ast.FilterFile(ast.LiteralType, f) {
		tok := n.(*ast.LiteralNode).Start
		if tok == nil || tok.Position == nil || !strings.Contains(tok.Value, "-") {
			continue
		}
		at := byteOffset(src, tok.Position.Line, tok.Position.Column)
		if at < 0 || !bytes.HasPrefix(src[at:], []byte(tok.Value)) {
			continue // not where the library says: leave it as it reads it
		}
		if out == nil {
			out = bytes.Clone(src)
			changed = map[[2]int]bool{}
		}
		clip := strings.Replace(tok.Value, "-", "", 1) + " "
		copy(out[at:], clip)
		changed[[2]int{tok.Position.Line, tok.Position.Column}] = true
	}
	return out, changed
}

// byteOffset is the offset in src of a 1-based line and column (counted
// in characters), or -1.
func byteOffset(src []byte, line, column int) int {
	at := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[at:], '\n')
		if i < 0 {
			return -1
		}
		at += i + 1
	}
	for c := 1; c < column; c++ {
		if at >= len(src) || src[at] == '\n' {
			return -1
		}
		_, size := utf8.DecodeRune(src[at:])
		at += size
	}
	return at
}

// literalText is a block scalar's text, chomped as its header says.
func (c *converter) literalText(n *ast.LiteralNode) string {
	text := n.Value.Value
	if tok := n.Start; tok != nil && tok.Position != nil && c.stripped[[2]int{tok.Position.Line, tok.Position.Column}] {
		text = strings.TrimRight(text, "\n")
	}
	return text
}
