package grep

import (
	"fmt"
	"path"
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
	dir := ""
	for i, group := range groupByFile(res.Matches) {
		if i > 0 {
			b.WriteByte('\n')
		}
		p := group[0].Path
		switch d := path.Dir(p); {
		case single || d == ".":
			fmt.Fprintf(&b, "# %s\n", p)
		case d != dir:
			fmt.Fprintf(&b, "# %s/\n## %s\n", d, path.Base(p))
			dir = d
		default:
			fmt.Fprintf(&b, "## %s\n", path.Base(p))
		}
		writeLines(&b, group)
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

func groupByFile(matches []Match) [][]Match {
	var groups [][]Match
	for i, m := range matches {
		if i == 0 || m.Path != matches[i-1].Path {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], m)
	}
	return groups
}

// writeLines writes one file's match and context lines once each, in order.
func writeLines(b *strings.Builder, matches []Match) {
	type line struct {
		text  string
		match bool
	}
	lines := map[int]line{}
	for _, m := range matches {
		for _, c := range append(slices.Clone(m.ContextBefore), m.ContextAfter...) {
			if _, ok := lines[c.LineNumber]; !ok {
				lines[c.LineNumber] = line{text: c.Text}
			}
		}
		for i, text := range strings.Split(m.LineText, "\n") {
			lines[m.LineNumber+i] = line{text: text, match: true}
		}
	}
	numbers := make([]int, 0, len(lines))
	for n := range lines {
		numbers = append(numbers, n)
	}
	slices.Sort(numbers)
	for i, n := range numbers {
		if i > 0 && n > numbers[i-1]+1 {
			b.WriteString("...\n")
		}
		mark := " "
		if lines[n].match {
			mark = "*"
		}
		fmt.Fprintf(b, "%s%d|%s\n", mark, n, lines[n].text)
	}
}
