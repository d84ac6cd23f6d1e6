package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/structls/structls/internal/english"
)

// renderText is the text rendering of a scan, grouped by file like
// ast-grep's report: a header per diagnostic, the line with the match
// underlined, the note, then a summary.
func renderText(res *Result) string {
	var b strings.Builder
	for _, e := range res.RuleErrors {
		fmt.Fprintf(&b, "error: %s\n", e.Message)
	}
	for _, d := range res.Diagnostics {
		writeDiagnostic(&b, d)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	if len(res.RuleErrors) == 0 {
		b.WriteString(Summary(res) + "\n")
	}
	return b.String()
}

// writeDiagnostic writes one diagnostic:
//
//	warning[no-println]: do not print 1
//	  --> a.go:3:2
//	   |
//	 3 |     fmt.Println(1)
//	   |     ^^^^^^^^^^^^^^
//	   = note: …
func writeDiagnostic(b *strings.Builder, d Diagnostic) {
	fmt.Fprintf(b, "%s[%s]: %s\n", d.Severity, d.RuleID, d.Message)
	col := d.Range.Start.Character + 1
	fmt.Fprintf(b, "  --> %s:%d:%d\n", d.Path, d.lineNo, col)
	gutter := strings.Repeat(" ", len(fmt.Sprint(d.lineNo)))
	fmt.Fprintf(b, "%s |\n", gutter)
	line := strings.ReplaceAll(d.line, "\t", "    ")
	fmt.Fprintf(b, "%d | %s\n", d.lineNo, line)
	prefix := d.line[:min(len(d.line), max(0, d.ByteRange.Start-d.lineStart))]
	width := utf8.RuneCountInString(strings.ReplaceAll(prefix, "\t", "    "))
	span := d.Text
	if i := strings.IndexByte(span, '\n'); i >= 0 {
		span = span[:i]
	}
	fmt.Fprintf(b, "%s | %s%s\n", gutter, strings.Repeat(" ", width), strings.Repeat("^", max(1, utf8.RuneCountInString(span))))
	if d.Note != "" {
		for i, l := range strings.Split(d.Note, "\n") {
			if i == 0 {
				fmt.Fprintf(b, "%s = note: %s\n", gutter, l)
			} else {
				fmt.Fprintf(b, "%s         %s\n", gutter, l)
			}
		}
	}
	if d.Fix != nil {
		fmt.Fprintf(b, "%s = fix: %s\n", gutter, strings.ReplaceAll(d.Fix.Text, "\n", "\n"+gutter+"        "))
	}
	b.WriteString("\n")
}

// Summary is the line that ends a scan's text: "3 diagnostics (1 error) in
// 1 file scanned".
func Summary(res *Result) string {
	return fmt.Sprintf("%s (%s) in %s scanned", english.Count(len(res.Diagnostics), "diagnostic", "diagnostics"),
		english.Count(res.ErrorCount, "error", "errors"), english.Count(res.FilesScanned, "file", "files"))
}
