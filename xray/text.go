package xray

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/workspace"
)

// maxTextBytes caps the text rendering (format "text"): the matches that
// fit, then the notes and the summary; the page says the exact skip that
// continues it.
const maxTextBytes = workspace.MaxTextBytes

// textTailReserve is the part of maxTextBytes kept for what follows the
// matches.
const textTailReserve = 4 * 1024

// renderText is the agent-friendly rendering of a whole result (a batch of
// scans): matches grouped by file as `LINE|content` lines, each followed by
// its fields as `  name=value` (JSON values, keys sorted); then file
// metadata, the distinct evaluation errors with their counts, and a
// summary line; res holds the matches after the query's skip, and keeps
// those the text shows.
func renderText(res *Result, skip int) string {
	var b strings.Builder
	page := newTextPage(skip)
	res.Matches = page.fit(&b, res.Matches)
	page.finish(&b, res)
	return b.String()
}

// textPage is a text rendering being built, match after match (a streamed
// run renders each batch as it goes), under maxTextBytes.
type textPage struct {
	from int // the query's skip: the matches before the page
	view matchText
	workspace.TextPage
}

func newTextPage(skip int) textPage {
	return textPage{from: skip, TextPage: workspace.TextPage{Reserve: textTailReserve}}
}

// fit renders the matches that fit and returns them (see
// workspace.TextPage).
func (p *textPage) fit(b *strings.Builder, matches []Match) []Match {
	for i := range matches {
		var one strings.Builder
		view := p.view // a match that does not fit must not move the headings on
		view.write(&one, matches[i:i+1])
		if !p.Add(b, one.String()) {
			return matches[:i]
		}
		p.view = view
	}
	return matches
}

// finish writes what follows the matches: the notes (writeTail), cut to
// stay under the cap, then the summary and, for a page that stopped at the
// cap, the line that continues it, ending in the exact skip=N (which res
// gets as NextSkip).
func (p *textPage) finish(b *strings.Builder, res *Result) {
	var notes strings.Builder
	writeTail(&notes, res)
	last := summary(res)
	if p.Full {
		next := p.from + p.Shown
		res.NextSkip = &next
		last += fmt.Sprintf("\nShowing matches %d-%d of %d (the %d KB text cap); for the rest repeat the query with skip=%d\n",
			p.from+1, next, res.MatchCount, maxTextBytes/1024, next)
	}
	tail := notes.String()
	if room := maxTextBytes - p.Bytes - len(last); len(tail) > room {
		tail = workspace.CutToBytes(tail, room-8) + "…\n"
	}
	b.WriteString(tail)
	b.WriteString(last)
}

// matchText renders matches grouped by file, batch after batch (a streamed
// run renders each batch as it goes: the file headings carry over).
type matchText struct {
	headings workspace.FileHeadings
	last     string // the URI of the last match written
}

func (t *matchText) write(b *strings.Builder, matches []Match) {
	for _, m := range matches {
		if m.URI != t.last {
			t.headings.Write(b, m.Path)
			t.last = m.URI
		}
		fmt.Fprintf(b, "%d|%s\n", m.LineNumber, m.LineContent)
		if m.ScanIndex != nil {
			fmt.Fprintf(b, "  scan: %d %s (folder %s)\n", *m.ScanIndex, m.ScanName, m.Folder)
		}
		keys := make([]string, 0, len(m.Fields))
		for k := range m.Fields {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(b, "  %s=%s\n", k, jsonText(m.Fields[k]))
		}
		if m.Ast != nil {
			b.WriteString("  ast:\n")
			writeAst(b, m.Ast, 2)
		}
	}
}

// writeTail renders the notes that follow the matches: file metadata,
// evaluation errors and cells that could not run.
func writeTail(b *strings.Builder, res *Result) {
	if len(res.FileMetadata) > 0 {
		b.WriteString("\nfile metadata:\n")
		for _, md := range res.FileMetadata {
			fmt.Fprintf(b, "%s:", md.Path)
			if md.FileRole != "" {
				fmt.Fprintf(b, " role=%s", md.FileRole)
			}
			if md.Value != nil {
				fmt.Fprintf(b, " value=%s", jsonText(md.Value))
			}
			b.WriteByte('\n')
		}
	}
	if len(res.EvaluationErrors) > 0 {
		writeErrors(b, res.EvaluationErrors)
	}
	if len(res.CellErrors) > 0 {
		b.WriteString("\ncells that could not run:\n")
		for _, e := range res.CellErrors {
			fmt.Fprintf(b, "folder %s, scan %d %s: %s\n", e.Folder, e.ScanIndex, e.ScanName, e.Message)
		}
	}
}

// summary is the line that ends the text: the matches, the files
// evaluated, the evaluation errors by type, why a run stopped early; then
// the warnings.
func summary(res *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s; %d of %d candidate files evaluated", english.Count(res.MatchCount, "match", "matches"), res.FilesEvaluated, res.Candidates)
	if n := len(res.EvaluationErrors); n > 0 {
		fmt.Fprintf(&b, "; %s (%s)", english.Count(n, "evaluation error", "evaluation errors"), errorsByType(res.EvaluationErrors))
	}
	switch {
	case res.Cancelled:
		b.WriteString("; stopped by the user (partial)")
	case res.Timeout:
		b.WriteString("; stopped at timeoutSeconds (partial)")
	case res.MaxFilesReached:
		b.WriteString("; stopped at maxFiles (partial)")
	case res.OutputLimitReached:
		b.WriteString("; stopped at the output limit (partial)")
	}
	b.WriteByte('\n')
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

func jsonText(v any) string {
	out, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(out)
}

// writeAst writes an explore-mode kind tree, one node a line, indented by
// depth: `field: kind `text“, anonymous nodes as their quoted kind, and
// "…" where maxDebugNodes cut the children.
func writeAst(b *strings.Builder, n *AstNode, depth int) {
	b.WriteString(strings.Repeat("  ", depth))
	if n.Field != "" {
		b.WriteString(n.Field + ": ")
	}
	if n.Named {
		fmt.Fprintf(b, "%s `%s`\n", n.Type, n.TextPreview)
	} else {
		fmt.Fprintf(b, "%q\n", n.Type)
	}
	for _, c := range n.Children {
		writeAst(b, c, depth+1)
	}
	if n.Truncated {
		b.WriteString(strings.Repeat("  ", depth+1) + "…\n")
	}
}
