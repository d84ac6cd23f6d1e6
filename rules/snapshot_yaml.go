package rules

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Snapshot files are written as ast-grep 0.51.1 writes them (its YAML
// writer is serde-saphyr 2.0.0), so that a project moves between the two
// tools with byte-identical files: cases sorted by their text, each
// snapshot's `fixed` then `labels`, each label's source, message, style,
// start and end; a scalar plain where YAML reads it back as the same
// string, a one-line value over 80 characters that could be plain folded
// (`>-`), a literal block (`|`, `|-`, `|+`) for a value of several lines,
// `'.'`, `'#'` and `'-'` single-quoted, else double-quoted; a key longer
// than 1,024 characters as an explicit `? ` key, since YAML readers refuse
// longer implicit keys. rules/snapshot_write_test.go checks each style
// against ast-grep.

// maxImplicitKey is the longest key YAML allows without `? `.
const maxImplicitKey = 1024

// snapshotText is a snapshot file's text.
func snapshotText(id string, snaps map[string]any) []byte {
	var b strings.Builder
	b.WriteString("id: ")
	writeScalar(&b, id, 0)
	b.WriteString("snapshots:\n")
	keys := make([]string, 0, len(snaps))
	for k := range snaps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		snap, _ := snaps[k].(map[string]any)
		fields := snapshotFields(snap)
		if utf8.RuneCountInString(k) > maxImplicitKey {
			b.WriteString("  ? " + keyScalar(k) + "\n  : ")
		} else {
			b.WriteString("  " + keyScalar(k) + ":")
			if len(fields) == 0 {
				b.WriteString(" {}\n")
				continue
			}
			b.WriteString("\n    ")
		}
		for i, f := range fields {
			if i > 0 {
				b.WriteString("    ")
			}
			f(&b)
		}
	}
	return []byte(b.String())
}

// snapshotFields are the writers of a snapshot's fields, each starting at
// the field's indentation (4) and ending with a newline.
func snapshotFields(snap map[string]any) []func(*strings.Builder) {
	var out []func(*strings.Builder)
	if fixed, ok := snap["fixed"].(string); ok {
		out = append(out, func(b *strings.Builder) {
			b.WriteString("fixed: ")
			writeScalar(b, fixed, 4)
		})
	}
	if labels, ok := snap["labels"].([]any); ok {
		out = append(out, func(b *strings.Builder) {
			b.WriteString("labels:\n")
			for _, l := range labels {
				m, _ := l.(map[string]any)
				b.WriteString("    - source: ")
				writeScalar(b, fmt.Sprint(m["source"]), 6)
				if msg, ok := m["message"]; ok {
					b.WriteString("      message: ")
					writeScalar(b, fmt.Sprint(msg), 6)
				}
				fmt.Fprintf(b, "      style: %v\n      start: %v\n      end: %v\n", m["style"], m["start"], m["end"])
			}
		})
	}
	return out
}

// keyScalar is a mapping key in the style ast-grep's writer picks: plain
// or double-quoted.
func keyScalar(s string) string {
	if plainScalar(s, true) {
		return s
	}
	return doubleQuoted(s)
}

// writeScalar writes a value and a newline in the style ast-grep's writer
// picks; indent is the indentation of the mapping holding it.
func writeScalar(b *strings.Builder, s string, indent int) {
	switch {
	case foldedScalar(s):
		b.WriteString(">-\n")
		pad := strings.Repeat(" ", indent+2)
		for _, line := range foldLines(s) {
			b.WriteString(pad + line + "\n")
		}
		return
	case plainScalar(s, false):
		b.WriteString(s)
	case literalScalar(s):
		chomp := "-"
		if strings.HasSuffix(s, "\n\n") {
			chomp = "+"
		} else if strings.HasSuffix(s, "\n") {
			chomp = ""
		}
		b.WriteString("|" + chomp + "\n")
		pad := strings.Repeat(" ", indent+2)
		for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			b.WriteString(pad + line + "\n")
		}
		return
	case s == "." || s == "#" || s == "-":
		b.WriteString("'" + s + "'") // ast-grep's writer single-quotes these three
	default:
		b.WriteString(doubleQuoted(s))
	}
	b.WriteByte('\n')
}

// foldWidth is the width past which ast-grep folds a one-line value (`>-`).
const foldWidth = 80

// foldedScalar reports whether ast-grep writes s folded: one line longer
// than foldWidth characters that, its trailing spaces aside, could be
// written plain.
func foldedScalar(s string) bool {
	if utf8.RuneCountInString(s) <= foldWidth || strings.Contains(s, "\n") {
		return false
	}
	probe := strings.TrimRight(s, " ")
	return probe != "" && plainScalar(probe, false)
}

// foldLines splits a one-line value into the lines of its folded block as
// ast-grep's YAML writer (serde-saphyr 2.0.0) writes them. Characters are
// counted from the start of a line; when the count passes foldWidth, the
// line is broken at the last run of spaces seen in it (one of its spaces
// becomes the line break, the others stay at the end of the line) and the
// count starts again from zero at the character that passed the width.
// The characters between the run and that character are not counted, so a
// line after the first may run longer than foldWidth. A run followed by a
// tab is no break point; once the width is passed with no break point
// seen, the rest of the value stays on one line. The lines read back as s.
func foldLines(s string) []string {
	var lines []string
	start, count := 0, 0
	breakStart, breakEnd := -1, -1 // the last closed run of spaces, or -1
	runStart := -1                 // the run of spaces being read, or -1
	for i, r := range s {
		if runStart >= 0 && r != ' ' {
			if r != '\t' {
				breakStart, breakEnd = runStart, i
			}
			runStart = -1
		}
		if r == ' ' && runStart < 0 {
			runStart = i
		}
		if count++; count <= foldWidth {
			continue
		}
		if breakStart < 0 {
			break
		}
		lines = append(lines, s[start:breakStart]+s[breakStart+1:breakEnd])
		start, count = breakEnd, 0
		breakStart, breakEnd = -1, -1
	}
	return append(lines, s[start:])
}

// A plain scalar that a YAML reader might take for something other than a
// string is quoted. ast-grep's writer quotes, and so does structls: null,
// booleans (YAML 1.1's too), infinities and NaNs in any letter case; merge
// and value keys; YAML 1.1 timestamps and sexagesimal numbers; and YAML 1.1
// or 1.2 numbers, with or without their underscores (`1_000`, `0x_`, `_1`),
// where a fraction may hold dots (`1.2.3`, `.`). (Compiled on first use, as
// metaVarPattern.)
var (
	yamlWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:~|null|true|false|y|yes|n|no|on|off|[-+]?\.(?:inf|nan)|[-+]?inf|nan|<<|=)$`)
	})
	yamlNumber = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[-+]?(?:0[bB][01_]+|0[oO][0-7_]+|0[xX][0-9a-fA-F_]+|[0-9][0-9_]*` +
			`|(?:[0-9][0-9_]*)?\.[0-9._]*(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*[eE][-+]?[0-9]+)$`)
	})
	yaml11Sexagesimal = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`) })
	yaml11Timestamp   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}` +
			`(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?$`)
	})
)

// ambiguousScalar reports whether s, written plain, might read back as
// something other than the string s.
func ambiguousScalar(s string) bool {
	return s == "" || yamlWord().MatchString(s) || yaml11Sexagesimal().MatchString(s) || yaml11Timestamp().MatchString(s) ||
		yamlNumber().MatchString(s) || yamlNumber().MatchString(strings.ReplaceAll(s, "_", ""))
}

// documentMarker reports whether s starts with `---` or `...` standing
// alone, which a reader takes for the start or end of a document.
func documentMarker(s string) bool {
	if !strings.HasPrefix(s, "---") && !strings.HasPrefix(s, "...") {
		return false
	}
	return len(s) == 3 || s[3] == ' ' || s[3] == '\t'
}

// commentStart reports whether s holds a `#` right after white space (any
// Unicode white space, as ast-grep's writer checks), which YAML would read
// as the start of a comment.
func commentStart(s string) bool {
	prev := 'x'
	for _, r := range s {
		if r == '#' && unicode.IsSpace(prev) {
			return true
		}
		prev = r
	}
	return false
}

// plainScalar reports whether s can be written without quotes and read
// back as the same string.
func plainScalar(s string, key bool) bool {
	if ambiguousScalar(s) || documentMarker(s) {
		return false
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' || strings.Contains(s, ": ") || commentStart(s) ||
		strings.HasSuffix(strings.TrimRightFunc(s, unicode.IsSpace), ":") {
		return false
	}
	if key && strings.ContainsRune(s, ':') {
		return false
	}
	switch s[0] {
	case '!', '&', '*', '"', '\'', '%', '@', '`', '#', '|', '>', '{', '}', '[', ']', ',', ':':
		return false
	case '-', '?':
		if len(s) == 1 || s[1] == ' ' {
			return false
		}
	}
	if key && strings.ContainsAny(s, ",[]{}") {
		return false
	}
	for _, r := range s {
		if !printable(r) || r == '\t' {
			return false
		}
	}
	return true
}

// literalScalar reports whether s can be written as a literal block: lines
// of printable text (tabs allowed), the first not starting with a space.
func literalScalar(s string) bool {
	if !strings.Contains(s, "\n") || s[0] == ' ' || s[0] == '\n' {
		return false
	}
	for _, r := range s {
		if r != '\n' && r != '\t' && !printable(r) {
			return false
		}
	}
	return true
}

// printable reports whether YAML lets r stand for itself in a scalar.
func printable(r rune) bool {
	switch {
	case r == utf8.RuneError:
		return false
	case r < 0x20 || r == 0x7f:
		return false
	case r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff:
		return false
	case r >= 0x80 && r < 0xa0:
		return false
	case r >= 0xd800 && r <= 0xdfff, r == 0xfffe, r == 0xffff:
		return false
	}
	return true
}

// yamlEscapes are the short escapes of double-quoted YAML.
var yamlEscapes = map[rune]string{0: `\0`, 7: `\a`, 8: `\b`, '\t': `\t`, '\n': `\n`, 0x0b: `\v`, 0x0c: `\f`, '\r': `\r`, 0x1b: `\e`,
	'"': `\"`, '\\': `\\`, 0x85: `\N`, 0x2028: `\L`, 0x2029: `\P`}

// doubleQuoted writes s as a double-quoted YAML scalar.
func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch esc, ok := yamlEscapes[r]; {
		case ok:
			b.WriteString(esc)
		case printable(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02X`, r)
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
