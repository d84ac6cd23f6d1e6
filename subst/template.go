// Package subst expands ast-grep's rewrite templates: each metavariable
// ($A, $$$ARGS) is replaced by the source text it captured, re-indented to
// where the template puts it, in the file's line endings. It is the pure
// part of rewriting — text in, text out, no file read or written — shared
// by structural rewrites (package rewrite) and rules' fixes (package rules);
// docs/ast-grep-differences.md lists where its output deliberately differs
// from ast-grep's.
package subst

import (
	"bytes"
	"fmt"
	"strings"
)

// Template is a parsed rewrite template: literal text and metavariables.
//
// Lexing follows ast-grep 0.51.1: at each "$", up to three "$" are read
// (exactly three make a multi variable, $$$NAME), then a name of upper-case
// letters, digits and "_" that does not start with a digit. Without a name
// the "$" is literal and lexing goes on at the next byte, so "$1", "$x", a
// bare "$$$" and "$$$1" stay as written, and "$$$$A" is "$" then $$$A.
type Template struct {
	parts []templatePart
}

// templatePart is one literal run or one metavariable of a template.
type templatePart struct {
	literal     string // the text, when name is ""
	literalCRLF string // literal with every bare "\n" made "\r\n", for CRLF files
	name        string // the metavariable's name
	multi       bool   // $$$NAME rather than $NAME or $$NAME
	// indent is the leading whitespace of the template line holding the
	// metavariable: a multi-line capture is re-indented to it.
	indent string
}

// ParseTemplate lexes a rewrite template. Every string is a valid template.
func ParseTemplate(src string) *Template {
	t := &Template{}
	literalStart := 0
	indents := newIndentIndex([]byte(src))
	for i := 0; i < len(src); {
		if src[i] != '$' {
			i++
			continue
		}
		name, multi, width := lexMetaVar(src[i:])
		if width == 0 {
			i++ // a literal "$"
			continue
		}
		t.addLiteral(src[literalStart:i])
		t.parts = append(t.parts, templatePart{name: name, multi: multi, indent: string(indents.at(i))})
		i += width
		literalStart = i
	}
	t.addLiteral(src[literalStart:])
	return t
}

func (t *Template) addLiteral(text string) {
	if text != "" {
		t.parts = append(t.parts, templatePart{literal: text, literalCRLF: toCRLF(text)})
	}
}

// lexMetaVar reads the metavariable at the start of s (which starts with
// "$"): its name, whether it is a multi variable, and its width in bytes;
// width 0 when s does not start with one.
func lexMetaVar(s string) (name string, multi bool, width int) {
	dollars := 0
	for dollars < 3 && dollars < len(s) && s[dollars] == '$' {
		dollars++
	}
	end := dollars
	for end < len(s) && isNameByte(s[end]) {
		end++
	}
	if end == dollars || (s[dollars] >= '0' && s[dollars] <= '9') {
		return "", false, 0
	}
	return s[dollars:end], dollars == 3, end
}

func isNameByte(b byte) bool {
	return b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}

// toCRLF turns every "\n" not already preceded by "\r" into "\r\n".
func toCRLF(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && (i == 0 || s[i-1] != '\r') {
			b.WriteByte('\r')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Span is a half-open range of byte offsets into a source text.
type Span struct{ Start, End int }

// Bindings are what a match bound, as spans of its source: a single
// metavariable's node, and a multi metavariable's nodes from the first one's
// start to the last one's end (absent when it bound no node).
type Bindings struct {
	Single map[string]Span
	Multi  map[string]Span
	// Values are computed strings ($NAME of a rule's transform), used for a
	// $NAME that Single lacks; multi-line values are indented like the
	// template line holding them.
	Values map[string]string
}

// Source is the text of one file being rewritten, with what Expand needs
// to know about it.
type Source struct {
	Text []byte
	// CRLF: the file's lines end in "\r\n" (its first line break is one), so
	// the line breaks a template brings in are written as "\r\n" too.
	CRLF    bool
	indents *indentIndex // the indentation of its lines, learnt as Expand asks
}

// NewSource wraps a file's text.
func NewSource(text []byte) Source {
	i := bytes.IndexByte(text, '\n')
	return Source{Text: text, CRLF: i > 0 && text[i-1] == '\r', indents: newIndentIndex(text)}
}

// MaxReplacementText caps the text an edit may produce: one replacement,
// and all the replacements of a preview together, over all its files. A
// template such as "$A$A$A…" over a large capture, or a huge template over
// many matches, must get a clear error, not exhaust the server's memory.
const MaxReplacementText = 64 << 20

// ErrReplacementTooLarge is Expand's error when the text would pass
// MaxReplacementText.
var ErrReplacementTooLarge = fmt.Errorf("the rewrite makes more than %d MiB of text", MaxReplacementText>>20)

// expandedSize is the size of the expansion before reindenting: the
// literals and the captured text.
func (t *Template) expandedSize(src Source, b Bindings) int {
	n := 0
	for _, p := range t.parts {
		captures := b.Single
		if p.multi {
			captures = b.Multi
		}
		switch span, ok := captures[p.name]; {
		case p.name == "" && src.CRLF:
			n += len(p.literalCRLF)
		case p.name == "":
			n += len(p.literal)
		case ok:
			n += span.End - span.Start
		default:
			n += len(b.Values[p.name])
		}
	}
	return n
}

// Expand returns the text that replaces the matched node at span node, or
// ErrReplacementTooLarge.
//
// As in ast-grep, each metavariable expands to the verbatim source it
// captured (an unbound one to nothing); a multi-line capture is
// re-indented from the indentation of its own first line to that of the
// template line holding the variable; then every line of the result but the
// first is indented like the line the match starts on (the first line
// takes the matched node's place). See reindent for the rules.
func (t *Template) Expand(src Source, node Span, b Bindings) ([]byte, error) {
	if src.indents == nil { // a Source made without NewSource
		src.indents = newIndentIndex(src.Text)
	}
	out := make([]byte, 0, min(t.expandedSize(src, b), MaxReplacementText+1)) // one allocation: an expansion can be 64 MiB
	for k, p := range t.parts {
		if len(out) > MaxReplacementText {
			return nil, ErrReplacementTooLarge
		}
		if p.name == "" {
			if src.CRLF {
				out = append(out, p.literalCRLF...)
			} else {
				out = append(out, p.literal...)
			}
			continue
		}
		captures := b.Single
		if p.multi {
			captures = b.Multi
		}
		lineFollows := k+1 < len(t.parts) && startsWithLineBreak(t.parts[k+1].literal)
		span, ok := captures[p.name]
		if !ok {
			if value, ok := b.Values[p.name]; ok && !p.multi {
				out = append(out, reindent([]byte(value), nil, []byte(p.indent), lineFollows)...)
			}
			continue
		}
		text := src.Text[span.Start:span.End]
		out = append(out, reindent(text, src.indents.at(span.Start), []byte(p.indent), lineFollows)...)
	}
	lineFollows := node.End == len(src.Text) || startsWithLineBreak(string(src.Text[node.End:min(node.End+2, len(src.Text))]))
	out = reindent(out, nil, src.indents.at(node.Start), lineFollows)
	if len(out) > MaxReplacementText {
		return nil, ErrReplacementTooLarge
	}
	return out, nil
}

func startsWithLineBreak(s string) bool {
	return strings.HasPrefix(s, "\n") || strings.HasPrefix(s, "\r\n")
}
