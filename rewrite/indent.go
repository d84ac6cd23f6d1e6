package rewrite

import (
	"bytes"
)

// lineIndent returns the leading whitespace (spaces and tabs) of the line
// holding offset off, up to off.
//
// ast-grep counts only spaces, looking back at most 512 bytes: a tab-indented
// line has indent 0 there, and so has a line longer than 512 bytes. For a
// line indented with spaces alone the two agree.
func lineIndent(text []byte, off int) []byte {
	start := bytes.LastIndexByte(text[:off], '\n') + 1
	end := start
	for end < off && (text[end] == ' ' || text[end] == '\t') {
		end++
	}
	return text[start:end]
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
