package grep

import (
	"fmt"

	"github.com/structls/structls/workspace"
	"slices"
	"strings"
)

// maxTextBytes caps the text rendering: a page holds the files that fit,
// and its first note names the exact skip that continues it.
const maxTextBytes = workspace.MaxTextBytes

// textTailReserve is the part of maxTextBytes kept for the notes.
const textTailReserve = 4 * 1024

// renderText renders a result (the page from file skip) the way the seed
// search tool shows it to agents: files grouped under their directory ("#
// dir/", "## name"), match lines as "*N|text", context lines as " N|text",
// "..." where lines are skipped, then notes on paging, missing paths and
// skipped files. The rendering stops at the first file that does not fit
// in maxTextBytes: the page ends there, and res keeps only the matches it
// shows (so its JSON and its text page alike); a first file alone over
// the cap shows its first lines.
func renderText(res *Result, single bool, skip int) string {
	var b strings.Builder
	if len(res.Matches) == 0 {
		b.WriteString("No matches found\n")
	}
	headings := workspace.FileHeadings{Flat: single}
	groups := GroupByFile(res.Matches)
	shown, kept, cut := 0, 0, false
	for _, group := range groups {
		var one strings.Builder
		next := headings
		next.Write(&one, group[0].Path)
		WriteLines(&one, group)
		if room := maxTextBytes - textTailReserve - b.Len(); one.Len() > room {
			if shown == 0 {
				text := one.String()
				b.WriteString(text[:strings.LastIndexByte(text[:room], '\n')+1])
				shown, kept, cut = 1, len(group), true
			}
			break
		}
		b.WriteString(one.String())
		headings = next
		shown++
		kept += len(group)
	}
	capped := shown < len(groups)
	if capped {
		res.Matches = res.Matches[:kept]
		res.MatchCount, res.FileCount = kept, shown
		if !single {
			next := skip + shown
			res.FileLimitReached, res.NextSkip = true, &next
		}
	}
	var notes []string
	if res.FileLimitReached && res.NextSkip != nil {
		first := *res.NextSkip - res.FileCount + 1
		why := ""
		if capped {
			why = fmt.Sprintf(" (the %d KB text cap)", maxTextBytes/1024)
		}
		notes = append(notes, fmt.Sprintf("Showing files %d-%d of %d%s. Use skip=%d for the next page, or narrow paths/pattern.",
			first, *res.NextSkip, res.TotalFiles, why, *res.NextSkip))
	}
	if cut {
		notes = append(notes, fmt.Sprintf("The lines of %s were cut at the %d KB text cap; search it with a line range (%s:10-20) to see the rest.",
			groups[0][0].Path, maxTextBytes/1024, groups[0][0].Path))
	}
	if res.PerFileLimitReached {
		notes = append(notes, "Some files have more matches than shown; narrow the pattern or raise perFileLimit.")
	}
	if len(res.MissingPaths) > 0 {
		notes = append(notes, "Skipped missing paths: "+strings.Join(res.MissingPaths, ", "))
	}
	notes = append(notes, res.Warnings...)
	if len(notes) > 0 {
		tail := "\n" + strings.Join(notes, "\n") + "\n"
		if room := maxTextBytes - b.Len(); len(tail) > room {
			tail = strings.ToValidUTF8(tail[:room-8], "") + "…\n"
		}
		b.WriteString(tail)
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
	start := 0
	for i := 1; i <= len(matches); i++ {
		if i == len(matches) || matches[i].Path != matches[i-1].Path {
			groups = append(groups, matches[start:i:i]) // no copy; an append to a group cannot reach the next
			start = i
		}
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
