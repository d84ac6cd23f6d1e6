package rewrite

import (
	"fmt"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/workspace"
)

// previewLineWidth caps the text of one preview line, in characters (the seed
// ast_edit tool's 120).
const previewLineWidth = 120

// maxParseIssuesShown caps the parse issues listed in the text rendering.
const maxParseIssuesShown = 20

// renderText renders a preview in the seed ast_edit tool's format: files
// grouped under their directory ("# dir/", "## name"), each replacement as
// "-LINE:COL before" and "+LINE:COL after" (the first line of each, cut to
// 120 characters), the notes, then the unified diff of every file.
func renderText(res *Result, files []*fileEdits) string {
	var b strings.Builder
	if res.TotalReplacements == 0 {
		b.WriteString("No replacements made\n")
	} else {
		fmt.Fprintf(&b, "%s in %s; nothing is written until the edit is applied.\n\n",
			english.Count(res.TotalReplacements, "replacement", "replacements"), english.Count(res.FilesTouched, "file", "files"))
	}
	var headings workspace.FileHeadings
	for _, f := range res.Files {
		headings.Write(&b, f.Path)
		for _, r := range f.Replacements {
			at := fmt.Sprintf("%d:%d", r.Range.Start.Line+1, r.Range.Start.Character+1)
			fmt.Fprintf(&b, "-%s %s\n+%s %s\n", at, previewLine(r.Before), at, previewLine(r.After))
		}
	}
	if res.LimitReached {
		fmt.Fprintf(&b, "\nLimit reached: the edit changes more than %s and only the first %d (in path order) are shown; raise maxFiles (--max-files) or narrow paths to see and apply the whole edit.\n",
			english.Count(res.FilesTouched, "file", "files"), res.FilesTouched)
	}
	if res.Skipped > 0 {
		fmt.Fprintf(&b, "\n%s inside another match of the same op skipped (the outer one is rewritten); preview again after applying to rewrite them.\n", english.Count(res.Skipped, "match", "matches"))
	}
	writeIssues(&b, res)
	for _, f := range files {
		if f.diff != "" {
			b.WriteString("\n")
			b.WriteString(f.diff)
		}
	}
	return b.String()
}

// previewLine is the first line of text, cut to previewLineWidth
// characters; "…" marks anything left out.
func previewLine(text string) string {
	line, rest, multi := strings.Cut(text, "\n")
	line = strings.TrimRight(line, "\r")
	cut := multi && strings.TrimSpace(rest) != ""
	// Cut at the character limit without converting the line (a replacement
	// can be 64 MiB on one line).
	for i, chars := 0, 0; i < len(line); chars++ {
		if chars == previewLineWidth {
			line, cut = line[:i], true
			break
		}
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
	}
	if cut {
		line += "…"
	}
	return line
}

// writeIssues appends the parse issues (at most maxParseIssuesShown) and
// the warnings.
func writeIssues(b *strings.Builder, res *Result) {
	if len(res.ParseErrors) > 0 {
		shown := res.ParseErrors[:min(len(res.ParseErrors), maxParseIssuesShown)]
		if len(shown) < len(res.ParseErrors) {
			fmt.Fprintf(b, "\nParse issues (%d / %d):\n", len(shown), len(res.ParseErrors))
		} else {
			b.WriteString("\nParse issues:\n")
		}
		for _, p := range shown {
			if p.Path != "" {
				fmt.Fprintf(b, "- %s: %s\n", p.Path, p.Message)
			} else {
				fmt.Fprintf(b, "- %s\n", p.Message)
			}
		}
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(b, "\nNote: %s\n", w)
	}
}

// maxDiffText is the most new text a file's replacements may make for the
// text rendering to show its unified diff: a diff repeats the new text,
// and past this it would be megabytes no one reads, held twice in memory.
const maxDiffText = 1 << 20

// unifiedDiff renders the edits of one file as a unified diff ("a/PATH",
// "b/PATH", three lines of context), or a note when they make more than
// maxDiffText of new text.
func unifiedDiff(path string, content []byte, edits []edit) string {
	made := 0
	for _, e := range edits {
		made += len(e.after)
	}
	if made > maxDiffText {
		return fmt.Sprintf("(no diff for %s: its replacements make %d bytes of new text, more than the text rendering shows (%d); the JSON result (--json) has them all)\n",
			path, made, maxDiffText)
	}
	ud := make([]udiff.Edit, len(edits))
	for i, e := range edits {
		ud[i] = udiff.Edit{Start: e.start, End: e.end, New: string(e.after)}
	}
	diff, err := udiff.ToUnified("a/"+path, "b/"+path, string(content), ud, udiff.DefaultContextLines)
	if err != nil { // cannot happen: the edits are sorted and do not overlap
		return fmt.Sprintf("(no diff for %s: %v)\n", path, err)
	}
	return diff
}
