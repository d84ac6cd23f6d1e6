package grep

import (
	"fmt"

	"github.com/structls/structls/workspace"
	"slices"
	"strings"
)

// renderText renders a result the way the seed search tool shows it to
// agents: files grouped under their directory ("# dir/", "## name"), match
// lines as "*N|text", context lines as " N|text", "..." where lines are
// skipped, then notes on paging, missing paths and skipped files.
func renderText(res *Result, single bool) string {
	var b strings.Builder
	if len(res.Matches) == 0 {
		b.WriteString("No matches found\n")
	}
	headings := workspace.FileHeadings{Flat: single}
	for _, group := range GroupByFile(res.Matches) {
		headings.Write(&b, group[0].Path)
		WriteLines(&b, group)
	}
	var notes []string
	if res.FileLimitReached && res.NextSkip != nil {
		first := *res.NextSkip - res.FileCount + 1
		notes = append(notes, fmt.Sprintf("Showing files %d-%d of %d. Use skip=%d for the next page, or narrow paths/pattern.",
			first, *res.NextSkip, res.TotalFiles, *res.NextSkip))
	}
	if res.PerFileLimitReached {
		notes = append(notes, "Some files have more matches than shown; narrow the pattern or raise perFileLimit.")
	}
	if len(res.MissingPaths) > 0 {
		notes = append(notes, "Skipped missing paths: "+strings.Join(res.MissingPaths, ", "))
	}
	notes = append(notes, res.Warnings...)
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
	return b.String()
}

// Line is one line of a file's results, as shown to a person.
type Line struct {
	Number int
	Text   string
	Match  bool // a matching line (otherwise context)
}

// FileLines merges one file's matches and their context into its lines, each
// once, in order; a multiline match contributes every line it spans.
func FileLines(matches []Match) []Line {
	byNumber := map[int]Line{}
	for _, m := range matches {
		for _, c := range slices.Concat(m.ContextBefore, m.ContextAfter) {
			if _, ok := byNumber[c.LineNumber]; !ok {
				byNumber[c.LineNumber] = Line{Number: c.LineNumber, Text: c.Text}
			}
		}
		for i, text := range strings.Split(m.LineText, "\n") {
			byNumber[m.LineNumber+i] = Line{Number: m.LineNumber + i, Text: text, Match: true}
		}
	}
	lines := make([]Line, 0, len(byNumber))
	for _, l := range byNumber {
		lines = append(lines, l)
	}
	slices.SortFunc(lines, func(a, b Line) int { return a.Number - b.Number })
	return lines
}

// GroupByFile splits matches (sorted by file) into one group per file.
func GroupByFile(matches []Match) [][]Match {
	var groups [][]Match
	for i, m := range matches {
		if i == 0 || m.Path != matches[i-1].Path {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], m)
	}
	return groups
}

// WriteLines writes one file's lines — "*N|text" matches, " N|text"
// context — with "..." where lines are skipped.
func WriteLines(b *strings.Builder, matches []Match) {
	lines := FileLines(matches)
	for i, l := range lines {
		if i > 0 && l.Number > lines[i-1].Number+1 {
			b.WriteString("...\n")
		}
		mark := " "
		if l.Match {
			mark = "*"
		}
		fmt.Fprintf(b, "%s%d|%s\n", mark, l.Number, l.Text)
	}
}
