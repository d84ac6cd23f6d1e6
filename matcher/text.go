package matcher

import (
	"fmt"
	"sort"
	"strings"

	"github.com/structls/structls/workspace"
)

// matchSink is where a search's matches go: into the Result (Search), or
// in batches to an emit function (SearchStream). With format "text" it
// renders them too in the seed ast_grep tool's format — files grouped
// under their directory ("# dir/", "## name"), each match as "*LINE|text"
// (further lines of a multi-line match as " LINE|text"), its bindings as
// "  meta: A=x, B=[y, z]", then the notes — as they come: into the
// batches' Text, or at the end into the Result's.
type matchSink struct {
	res   *Result
	text  bool
	emit  func(Batch) error // nil: collect into res.Matches
	view  textView
	shown int // matches sent
}

func newMatchSink(res *Result, text bool, emit func(Batch) error) *matchSink {
	return &matchSink{res: res, text: text, emit: emit}
}

// send takes the next matches in order.
func (o *matchSink) send(matches []Match) error {
	o.shown += len(matches)
	if o.emit == nil {
		o.res.Matches = append(o.res.Matches, matches...)
		return nil
	}
	b := Batch{Matches: matches}
	if o.text {
		var text strings.Builder
		o.view.writeMatches(&text, matches)
		b.Text = text.String()
	}
	return o.emit(b)
}

// finish renders the Result's text, once the result is complete: all of it
// when the matches were collected, the tail when they were streamed.
func (o *matchSink) finish() {
	if !o.text {
		return
	}
	var text strings.Builder
	if o.emit == nil {
		o.view.writeMatches(&text, o.res.Matches)
	}
	writeTail(&text, o.res, o.shown)
	o.res.Text = text.String()
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
		if meta := metaLine(m.MetaVariables); meta != "" {
			fmt.Fprintf(b, "  meta: %s\n", meta)
		}
	}
}

// writeTail renders what follows the matches (shown of them were
// rendered): the limit note, the parse issues, the warnings, the missing
// paths — or, when no match was shown, first a line saying so.
func writeTail(b *strings.Builder, res *Result, shown int) {
	if shown == 0 {
		if len(res.ParseErrors) > 0 {
			b.WriteString("No matches found. Parse issues mean the query may be mis-scoped; narrow `paths` before concluding absence.\n")
		} else {
			b.WriteString("No matches found\n")
		}
	}
	if res.LimitReached {
		b.WriteString("\nResult limit reached; narrow paths or increase limit.\n")
	}
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
	for _, m := range res.MissingPaths {
		fmt.Fprintf(b, "\nPath not found: %s\n", m)
	}
}

// metaLine renders bindings as "A=x, B=[y, z]", sorted by name.
func metaLine(vars map[string]any) string {
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, n := range names {
		switch v := vars[n].(type) {
		case Capture:
			parts = append(parts, n+"="+v.Text)
		case []Capture:
			texts := make([]string, len(v))
			for i, c := range v {
				texts[i] = c.Text
			}
			parts = append(parts, n+"=["+strings.Join(texts, ", ")+"]")
		}
	}
	return strings.Join(parts, ", ")
}
