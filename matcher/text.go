package matcher

import (
	"fmt"
	"sort"
	"strings"

	"github.com/structls/structls/workspace"
)

// renderText renders a result in the seed ast_grep tool's format: files
// grouped under their directory ("# dir/", "## name"), each match as
// "*LINE|text" (further lines of a multi-line match as " LINE|text"), its
// bindings as "  meta: A=x, B=[y, z]", then the notes.
func renderText(res *Result) string {
	var b strings.Builder
	if len(res.Matches) == 0 {
		if len(res.ParseErrors) > 0 {
			b.WriteString("No matches found. Parse issues mean the query may be mis-scoped; narrow `paths` before concluding absence.\n")
		} else {
			b.WriteString("No matches found\n")
		}
	}
	var headings workspace.FileHeadings
	file := ""
	for _, m := range res.Matches {
		if m.Path != file {
			headings.Write(&b, m.Path)
			file = m.Path
		}
		for i, line := range strings.Split(m.Lines, "\n") {
			mark := " "
			if i == 0 {
				mark = "*"
			}
			fmt.Fprintf(&b, "%s%d|%s\n", mark, m.Range.Start.Line+1+i, strings.TrimRight(line, "\r"))
		}
		if meta := metaLine(m.MetaVariables); meta != "" {
			fmt.Fprintf(&b, "  meta: %s\n", meta)
		}
	}
	if res.LimitReached {
		b.WriteString("\nResult limit reached; narrow paths or increase limit.\n")
	}
	if len(res.ParseErrors) > 0 {
		shown := res.ParseErrors[:min(len(res.ParseErrors), maxParseIssuesShown)]
		if len(shown) < len(res.ParseErrors) {
			fmt.Fprintf(&b, "\nParse issues (%d / %d):\n", len(shown), len(res.ParseErrors))
		} else {
			b.WriteString("\nParse issues:\n")
		}
		for _, p := range shown {
			if p.Path != "" {
				fmt.Fprintf(&b, "- %s: %s\n", p.Path, p.Message)
			} else {
				fmt.Fprintf(&b, "- %s\n", p.Message)
			}
		}
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "\nNote: %s\n", w)
	}
	for _, m := range res.MissingPaths {
		fmt.Fprintf(&b, "\nPath not found: %s\n", m)
	}
	return b.String()
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
