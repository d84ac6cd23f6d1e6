package workspace

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// InputError is a command argument the user must fix (a bad pattern, a
// negative limit, …); its message says how. The server answers it with
// InvalidParams, and the settings the message suggests in its data.
type InputError struct {
	Msg      string
	Suggests []Setting // the settings Msg names, as Setting.String writes them
}

func (e *InputError) Error() string { return e.Msg }

// Inputf makes an InputError; each Setting among args is recorded in
// Suggests, so that a client with other words for the fields (the command
// line's flags) can name them its way.
func Inputf(format string, args ...any) error {
	e := &InputError{Msg: fmt.Sprintf(format, args...)}
	for _, a := range args {
		if s, ok := a.(Setting); ok {
			e.Suggests = append(e.Suggests, s)
		}
	}
	return e
}

// Setting is a command field with the value a message suggests for it,
// written as the LSP contract names it: "literal: true".
type Setting struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

func (s Setting) String() string { return s.Field + ": " + s.Value }

// MaxTextBytes caps the text rendering of a command's result (format
// "text"), as the seed tools cap their replies at 50 KB: a page holds the
// entries that fit, and says the exact skip that continues it.
const MaxTextBytes = 50 * 1024

// TextPage holds the matches of a text rendering while they fit in
// MaxTextBytes less Reserve, the room kept for what follows them (notes,
// a summary, the line that continues the page).
type TextPage struct {
	Reserve int
	Bytes   int  // bytes of the matches written
	Shown   int  // matches written, a cut one included
	Full    bool // a match did not fit: the page ends before it
}

// Add writes one match's rendering to b if it fits, and reports whether
// it did. The first that does not fit ends the page, but a first match
// alone over the cap is cut to fit and written, so that every page moves
// on.
func (p *TextPage) Add(b *strings.Builder, match string) bool {
	if p.Full {
		return false
	}
	limit := MaxTextBytes - p.Reserve
	if p.Bytes+len(match) > limit {
		p.Full = true
		if p.Shown > 0 {
			return false
		}
		match = CutToBytes(match, limit-64) + fmt.Sprintf("… (cut: this match alone is over %d KB)\n", MaxTextBytes/1024)
	}
	b.WriteString(match)
	p.Bytes += len(match)
	p.Shown++
	return true
}

// CutToBytes returns the longest prefix of s of at most n bytes that ends
// on a character boundary.
func CutToBytes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// FirstLine shortens a multi-line text to its first line and the number of
// lines it has, "first … (N lines)": a reader sees where it starts and how
// big it is.
func FirstLine(text string) string {
	first, rest, multi := strings.Cut(text, "\n")
	if !multi {
		return text
	}
	return fmt.Sprintf("%s … (%d lines)", strings.TrimRight(first, "\r"), strings.Count(rest, "\n")+2)
}

// TextFormat reads a command's `format` field: "json" (or "") for the JSON
// result alone, "text" to add the agent-friendly rendering.
func TextFormat(format string) (bool, error) {
	switch format {
	case "", "json":
		return false, nil
	case "text":
		return true, nil
	}
	return false, Inputf("format %q is not supported: use \"json\" or \"text\"", format)
}

// FileHeadings writes the file headings of the grouped text renderings:
// "# name" for a file at a folder's root (or every file, when Flat), else
// "# dir/" once per directory and "## name" per file, with a blank line
// between files. Call Write when a new file's lines begin.
type FileHeadings struct {
	Flat  bool
	dir   string
	files int
}

// Write writes the heading of the file at the slash path rel.
func (h *FileHeadings) Write(b *strings.Builder, rel string) {
	if h.files > 0 {
		b.WriteByte('\n')
	}
	h.files++
	switch d := path.Dir(rel); {
	case h.Flat || d == ".":
		fmt.Fprintf(b, "# %s\n", rel)
	case d != h.dir:
		fmt.Fprintf(b, "# %s/\n## %s\n", d, path.Base(rel))
		h.dir = d
	default:
		fmt.Fprintf(b, "## %s\n", path.Base(rel))
	}
}
