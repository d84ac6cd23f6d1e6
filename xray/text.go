package xray

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/workspace"
)

// renderText is the agent-friendly rendering: matches grouped by file as
// `LINE|content` lines, each followed by its fields as `  name=value`
// (JSON values, keys sorted); then file metadata, the distinct evaluation
// errors with their counts, and a summary line.
func renderText(res *Result) string {
	var b strings.Builder
	var matches matchText
	matches.write(&b, res.Matches)
	writeTail(&b, res, len(res.Matches))
	return b.String()
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

// writeTail renders what follows the matches: file metadata, evaluation
// errors, cells that could not run, the summary (of matchCount matches)
// and the warnings.
func writeTail(b *strings.Builder, res *Result, matchCount int) {
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
	fmt.Fprintf(b, "\n%s; %d of %d candidate files evaluated", english.Count(matchCount, "match", "matches"), res.FilesEvaluated, res.Candidates)
	if n := len(res.EvaluationErrors); n > 0 {
		fmt.Fprintf(b, "; %s (%s)", english.Count(n, "evaluation error", "evaluation errors"), errorsByType(res.EvaluationErrors))
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
		fmt.Fprintf(b, "warning: %s\n", w)
	}
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
