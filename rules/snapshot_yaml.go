package rules

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Snapshot files are written as ast-grep 0.51.1 writes them, so that a
// project moves between the two tools (each reads the other's files, and
// short cases give byte-identical files): cases sorted by their text, each
// snapshot's `fixed` then `labels`, each label's source, message, style,
// start and end; a scalar plain where YAML reads it back as the same
// string, a literal block (`|`, `|-`, `|+`) for a value of several lines,
// else double-quoted; a key longer than 1,024 characters as an explicit
// `? ` key, since YAML readers refuse longer implicit keys. ast-grep folds
// values longer than 80 characters (`>-`); structls writes them plain or
// quoted, which reads back the same (docs/ast-grep-differences.md).

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
		line := ""
		for i, word := range strings.Split(strings.TrimSuffix(s, " "), " ") {
			switch {
			case i == 0:
				line = word
			case len(line)+1+len(word) > foldWidth:
				b.WriteString(pad + line + "\n")
				line = word
			default:
				line += " " + word
			}
		}
		if strings.HasSuffix(s, " ") {
			line += " "
		}
		b.WriteString(pad + line)
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
	default:
		b.WriteString(doubleQuoted(s))
	}
	b.WriteByte('\n')
}

// foldWidth is the width past which ast-grep folds a one-line value (`>-`).
const foldWidth = 80

// foldedScalar reports whether ast-grep writes s folded: one line longer
// than foldWidth, of printable words between single spaces.
func foldedScalar(s string) bool {
	if len(s) <= foldWidth || s[0] == ' ' || strings.Contains(s, "  ") || strings.ContainsAny(s, "\n\t") {
		return false
	}
	for _, r := range s {
		if !printable(r) {
			return false
		}
	}
	return true
}

// nonStringScalar matches the plain scalars a YAML 1.1 or 1.2 reader takes
// for something other than a string: null, booleans, numbers (with
// underscores, bases, sexagesimal), infinities, timestamps, merge and value
// keys.
var nonStringScalar = regexp.MustCompile(`^(?:~|null|Null|NULL|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|<<|=` +
	`|[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])*)` +
	`|[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+` +
	`|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*)$`)

// plainScalar reports whether s can be written without quotes and read
// back as the same string.
func plainScalar(s string, key bool) bool {
	if s == "" || nonStringScalar.MatchString(s) || s == "." {
		return false
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' || strings.HasSuffix(s, ":") || strings.Contains(s, ": ") || strings.Contains(s, " #") {
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
