package grammars

import (
	"bytes"
	"fmt"
)

// maxMarkdownBlocks bounds the containers (block quotes, list items, code
// blocks) a markdown line may hold open. tree-sitter-markdown v0.5.1's
// block scanner serialises its open blocks, 4 bytes each after a 5-byte
// header, into tree-sitter's 1,024-byte state buffer and aborts the
// process (an assertion; without it, it writes past the buffer) beyond 254
// of them. 240 leaves room for the one or two blocks a line's content may
// open after its prefix.
const maxMarkdownBlocks = 240

// markdownNesting refuses a markdown source in which some line could hold
// more than maxMarkdownBlocks blocks open. Containers stay open only
// where each line continues them: a block quote by its `>`, a list item by
// its marker or by indentation of at least two columns per level (a marker
// and a space). So a line's open blocks are at most its `>`s and list
// markers plus half the columns of the rest of its indentation (tabs as
// four), plus the few its content opens. The estimate errs on the safe
// side: only lines that start with hundreds of container markers or
// columns of indentation are ever refused.
func markdownNesting(source []byte) error {
	for line := 1; len(source) > 0; line++ {
		end := bytes.IndexByte(source, '\n')
		if end < 0 {
			end = len(source)
		}
		if n := markdownBlocksBound(source[:end]); n > maxMarkdownBlocks {
			return fmt.Errorf("line %d nests about %d markdown blocks (quotes, list items): tree-sitter-markdown cannot parse more than %d; the file is skipped", line, n, maxMarkdownBlocks)
		}
		source = source[min(end+1, len(source)):]
	}
	return nil
}

// markdownBlocksBound is an upper bound on the blocks the container prefix
// of line holds open: its `>`s and list markers (`-`, `+`, `*`, or up to
// nine digits and `.` or `)`, each followed by a space, a tab or the end of
// the line), each with the one space it may take, plus half the columns of
// the other spaces and tabs. Trailing blanks of a line with nothing after
// them continue no block.
func markdownBlocksBound(line []byte) int {
	blocks, columns, marked := 0, 0, 0 // marked: the columns before the last marker
	for i := 0; i < len(line); {
		c := line[i]
		marker := 0
		switch {
		case c == ' ':
			columns++
			i++
			continue
		case c == '\t':
			columns += 4
			i++
			continue
		case c == '>':
			marker = 1
		default:
			marker = listMarkerLen(line[i:])
		}
		if marker == 0 {
			return blocks + columns/2 // the line's content begins
		}
		blocks++
		i += marker
		if i < len(line) && line[i] == ' ' {
			i++ // the one space a marker takes
		}
		marked = columns
	}
	return blocks + marked/2
}

// listMarkerLen is the length of the list marker line starts with, or 0.
func listMarkerLen(line []byte) int {
	n := 0
	switch {
	case line[0] == '-' || line[0] == '+' || line[0] == '*':
		n = 1
	default:
		for n < len(line) && n < 9 && line[n] >= '0' && line[n] <= '9' {
			n++
		}
		if n == 0 || n == len(line) || (line[n] != '.' && line[n] != ')') {
			return 0
		}
		n++
	}
	if n < len(line) && line[n] != ' ' && line[n] != '\t' {
		return 0
	}
	return n
}
