package subst

import (
	"bytes"

	"github.com/structls/structls/workspace"
)

// indentIndex finds the indentation of the line holding an offset of one
// text. It learns where lines start (once, on first use) and each line's
// indentation (once per line), so that many questions about a long line —
// minified code, a template of many metavariables on one line — cost
// nothing more each, rather than a scan back to the line's start each.
// It is for one goroutine.
type indentIndex struct {
	text  []byte
	lines *workspace.Mapper
	ends  map[int]int // line → offset where its leading whitespace ends
}

func newIndentIndex(text []byte) *indentIndex {
	return &indentIndex{text: text, lines: workspace.NewMapper(text), ends: map[int]int{}}
}

// at returns the leading whitespace (spaces and tabs) of the line holding
// offset off, up to off.
//
// ast-grep counts only spaces, looking back at most 512 bytes: a tab-indented
// line has indent 0 there, and so has a line longer than 512 bytes. For a
// line indented with spaces alone the two agree.
func (x *indentIndex) at(off int) []byte {
	line := x.lines.Line(off)
	start := x.lines.LineStart(line)
	end, ok := x.ends[line]
	if !ok {
		end = start
		for end < len(x.text) && (x.text[end] == ' ' || x.text[end] == '\t') {
			end++
		}
		x.ends[line] = end
	}
	return x.text[start:max(start, min(end, off))]
}

// reindent moves multi-line text from indentation from to indentation to,
// as ast-grep's indent_lines does, with indentation as whitespace strings
// rather than space counts:
//
//   - single-line text, or from equal to to: unchanged;
//   - to extends from: the extra whitespace is added to every line but the
//     first (which continues where the text is inserted);
//   - from extends to: the extra whitespace is removed from the start of
//     every line that has it (ast-grep includes the first line);
//   - otherwise (tabs against spaces): every line but the first that starts
//     with from has that prefix replaced by to.
//
// Unlike ast-grep, a blank line (empty or only whitespace, before an
// optional "\r") is never given indentation, so a rewrite adds no trailing
// whitespace. The last line counts as a line only when endsLine says a line
// break (or the end of the file) follows the text; otherwise whatever
// follows continues it, and it is indented like any other.
func reindent(text, from, to []byte, endsLine bool) []byte {
	if bytes.Equal(from, to) || bytes.IndexByte(text, '\n') < 0 {
		return text
	}
	var add, remove []byte
	switch {
	case bytes.HasPrefix(to, from):
		add = to[len(from):]
	case bytes.HasPrefix(from, to):
		remove = from[len(to):]
	}
	out := make([]byte, 0, len(text)+len(text)/8)
	for i, line := range bytes.SplitAfter(text, []byte("\n")) {
		switch {
		case remove != nil:
			line = bytes.TrimPrefix(line, remove)
		case i == 0 || isBlank(line) && (endsLine || bytes.HasSuffix(line, []byte("\n"))):
		case add != nil:
			out = append(out, add...)
		case bytes.HasPrefix(line, from):
			out = append(out, to...)
			line = line[len(from):]
		}
		out = append(out, line...)
	}
	return out
}

// isBlank reports whether a line (with or without its line break) holds
// nothing but spaces and tabs.
func isBlank(line []byte) bool {
	return len(bytes.Trim(line, " \t\r\n")) == 0
}
