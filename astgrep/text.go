package astgrep

import (
	"fmt"
	"sort"
	"strings"

	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/workspace"
)

// textTailReserve is the part of workspace.MaxTextBytes kept for what
// follows the matches: the notes and the continuation line.
const textTailReserve = 4 * 1024

// matchSink is where a search's matches go: into the Result (Search), or
// in batches to an emit function (SearchStream). With format "text" it
// renders them too in the seed ast_grep tool's format — files grouped
// under their directory ("# dir/", "## name"), each match as "*LINE|text"
// (further lines of a multi-line match as " LINE|text"), its bindings as
// "  meta: A=x, B=[y, z]", then the notes — as they come: into the
// batches' Text, or at the end into the Result's. The rendering stops at
// workspace.MaxTextBytes: its last line names the exact skip that
// continues it, and the JSON matches are the ones the text shows, so both
// page alike (the matches after it are dropped, still counted).
type matchSink struct {
	res      *Result
	text     bool
	textOnly bool              // the text alone: no matches in the result or the batches
	skip     int               // the query's skip, for the continuation
	emit     func(Batch) error // nil: collect into res.Matches
	view     textView
	rendered strings.Builder    // the rendering of collected matches (emit == nil)
	page     workspace.TextPage // the matches rendered, under the cap
	shown    int                // matches sent
}

func newMatchSink(res *Result, set settings, skip int, emit func(Batch) error) *matchSink {
	return &matchSink{res: res, text: set.text, textOnly: set.textOnly, skip: skip, emit: emit, page: workspace.TextPage{Reserve: textTailReserve}}
}

// send takes the next matches in order.
func (o *matchSink) send(matches []Match) error {
	if o.page.Full {
		return nil
	}
	var text strings.Builder
	if o.text {
		matches = o.render(&text, matches)
	}
	o.shown += len(matches)
	if o.textOnly {
		matches = nil
	}
	if o.emit == nil {
		o.res.Matches = append(o.res.Matches, matches...)
		o.rendered.WriteString(text.String())
		return nil
	}
	if len(matches) == 0 && text.Len() == 0 {
		return nil
	}
	return o.emit(Batch{Matches: matches, Text: text.String()})
}

// render writes the matches that fit under the cap and returns them (see
// workspace.TextPage).
func (o *matchSink) render(b *strings.Builder, matches []Match) []Match {
	for i := range matches {
		var one strings.Builder
		view := o.view // a match that does not fit must not move the headings on
		view.writeMatches(&one, matches[i:i+1])
		if !o.page.Add(b, one.String()) {
			return matches[:i]
		}
		o.view = view
	}
	return matches
}

// finish renders the Result's text, once the result is complete: all of it
// when the matches were collected, the tail when they were streamed. A
// rendering that reached the cap ends the page there: the result says so
// with nextSkip.
func (o *matchSink) finish() {
	if !o.text {
		return
	}
	if o.page.Full {
		next := o.skip + o.shown
		o.res.LimitReached, o.res.NextSkip = true, &next
	}
	var text strings.Builder
	text.WriteString(o.rendered.String())
	writeTail(&text, o.res, o.skip, o.shown, o.page.Full, o.page.Bytes)
	o.res.Text = text.String()
}

// parseIssuesShown is how many parse issues a page of shown matches lists:
// no more than the matches (the notes must not drown the results), and
// maxParseIssuesShown when there are none, since then the issues may be
// why.
func parseIssuesShown(shown int) int {
	if shown == 0 {
		return maxParseIssuesShown
	}
	return min(shown, maxParseIssuesShown)
}

// textView is where a text rendering is: the headings written so far and
// the file of the last match, so matches can be rendered in batches.
type textView struct {
	headings workspace.FileHeadings
	file     string
}

// writeMatches renders matches, continuing from the ones rendered before.
func (v *textView) writeMatches(b *strings.Builder, matches []Match) {
	for _, m := range matches {
		if m.Path != v.file {
			v.headings.Write(b, m.Path)
			v.file = m.Path
		}
		for i, line := range strings.Split(m.Lines, "\n") {
			mark := " "
			if i == 0 {
				mark = "*"
			}
			fmt.Fprintf(b, "%s%d|%s\n", mark, m.Range.Start.Line+1+i, strings.TrimRight(line, "\r"))
		}
		if meta := MetaLine(m.MetaVariables); meta != "" {
			fmt.Fprintf(b, "  meta: %s\n", meta)
		}
	}
}

// writeTail renders what follows the matches (shown of them, from skip,
// were rendered, in used bytes): the parse issues (no more than the matches
// shown), the warnings, the missing paths and, last, the totals ("N matches
// in M files") or the line that continues a page that stopped early, with
// the totals and ending in the exact skip=N — or, when no match was shown,
// first a line saying so. The notes are cut to stay within the cap.
func writeTail(b *strings.Builder, res *Result, skip, shown int, full bool, used int) {
	var notes strings.Builder
	if shown == 0 {
		if len(res.ParseErrors) > 0 {
			notes.WriteString("No matches found. Parse issues mean the query may be mis-scoped; narrow `paths` before concluding absence.\n")
		} else {
			notes.WriteString("No matches found\n")
		}
	}
	if len(res.ParseErrors) > 0 {
		listed := res.ParseErrors[:min(len(res.ParseErrors), parseIssuesShown(shown))]
		if left := len(res.ParseErrors) - len(listed); left > 0 {
			fmt.Fprintf(&notes, "\nParse issues (%d of %d; %d more not listed):\n", len(listed), len(res.ParseErrors), left)
		} else {
			notes.WriteString("\nParse issues:\n")
		}
		for _, p := range listed {
			if p.Path != "" {
				fmt.Fprintf(&notes, "- %s: %s\n", p.Path, p.Message)
			} else {
				fmt.Fprintf(&notes, "- %s\n", p.Message)
			}
		}
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&notes, "\nNote: %s\n", w)
	}
	for _, m := range res.MissingPaths {
		fmt.Fprintf(&notes, "\nPath not found: %s\n", m)
	}
	last := ""
	inFiles := english.Count(res.FileCount, "file", "files")
	switch {
	case full:
		last = fmt.Sprintf("\nShowing matches %d-%d of %d in %s (the %d KB text cap); for the rest repeat the query with skip=%d\n",
			skip+1, skip+shown, res.MatchCount, inFiles, workspace.MaxTextBytes/1024, skip+shown)
	case res.LimitReached && res.NextSkip != nil:
		last = fmt.Sprintf("\nResult limit reached (matches %d-%d of %d in %s); narrow paths, or for the rest repeat the query with skip=%d\n",
			skip+1, *res.NextSkip, res.MatchCount, inFiles, *res.NextSkip)
	case res.MatchCount > 0:
		last = fmt.Sprintf("\n%s in %s\n", english.Count(res.MatchCount, "match", "matches"), inFiles)
	}
	tail := notes.String()
	if room := workspace.MaxTextBytes - used - len(last); len(tail) > room {
		tail = workspace.CutToBytes(tail, room-8) + "…\n"
	}
	b.WriteString(tail)
	b.WriteString(last)
}

// MetaLine renders bindings as "A=x, B=[y, z]", sorted by name; a binding
// over several lines shows its first line and the number of lines it
// spans (see CaptureText).
func MetaLine(vars map[string]any) string {
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, n := range names {
		switch v := vars[n].(type) {
		case Capture:
			parts = append(parts, n+"="+CaptureText(v))
		case []Capture:
			parts = append(parts, n+"="+CaptureText(v...))
		}
	}
	return strings.Join(parts, ", ")
}

// CaptureText renders a binding for a meta: line: one capture's text, or a
// list's texts as [a, b]. A binding over several lines is cut to its first
// line and the number of lines it spans, `{ a()` … (12 lines): a model
// reads where it starts and how big it is; the whole is in the file.
func CaptureText(captures ...Capture) string {
	list := len(captures) != 1
	texts := make([]string, len(captures))
	for i, c := range captures {
		texts[i] = c.Text
	}
	text := strings.Join(texts, ", ")
	open, end := "", ""
	if list {
		open, end = "[", "]"
	}
	if len(captures) == 0 || !strings.Contains(text, "\n") {
		return open + text + end
	}
	from, to := captures[0].Range.Start, captures[len(captures)-1].Range.End
	span := to.Line - from.Line + 1
	if to.Character == 0 && to.Line > from.Line {
		span-- // the capture ends with its last line's newline
	}
	first, _, _ := strings.Cut(text, "\n")
	return fmt.Sprintf("%s%s … (%d lines)%s", open, strings.TrimRight(first, "\r"), span, end)
}
