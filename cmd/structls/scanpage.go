package main

import (
	"fmt"
	"strings"

	"github.com/structls/structls/workspace"
)

// diagnosticHead is what starts a diagnostic's block in the scan's text
// report: "severity[rule]: message".
type diagnosticHead struct {
	Severity string `json:"severity"`
	RuleID   string `json:"ruleId"`
	Message  string `json:"message"`
}

func (d diagnosticHead) line() string {
	return fmt.Sprintf("%s[%s]: %s\n", d.Severity, d.RuleID, d.Message)
}

// pageScanText cuts the scan's text report (one block a diagnostic, in the
// order of diags, each ending with a blank line, then the warnings and the
// summary) to a page: the blocks from skip on that fit in 50 KB, then the
// rest of the report, and for a page that stopped early a line saying which
// diagnostics it shows and next(N), the command that continues it. A
// report whose blocks cannot be told apart is cut at 50 KB as text.
func pageScanText(text string, diags []diagnosticHead, skip int, next func(skip int) string) string {
	starts, end, ok := diagnosticBlocks(text, diags)
	if !ok {
		return capText(text, "narrow the paths or rules, or use --json for every diagnostic")
	}
	skip = min(skip, len(diags))
	head, tail := text[:starts[0]], text[end:]
	starts = append(starts, end)
	var b strings.Builder
	b.WriteString(head)
	limit := workspace.MaxTextBytes - 4<<10 - len(tail)
	shown := skip
	for i := skip; i < len(diags); i++ {
		block := text[starts[i]:starts[i+1]]
		if b.Len()+len(block) > limit {
			if shown == skip { // a first block alone over the cap: its first lines
				block = block[:strings.LastIndexByte(block[:max(0, limit-b.Len())], '\n')+1] + "…\n\n"
				b.WriteString(block)
				shown++
			}
			break
		}
		b.WriteString(block)
		shown++
	}
	b.WriteString(tail)
	if shown < len(diags) {
		fmt.Fprintf(&b, "Showing diagnostics %d-%d of %d (the %d KB text cap)\nFor the rest run: %s\n",
			skip+1, shown, len(diags), workspace.MaxTextBytes>>10, next(shown))
	}
	return b.String()
}

// diagnosticBlocks finds where each diagnostic's block starts in the text
// and where the last one ends; ok is false when a block is not where it
// should be.
func diagnosticBlocks(text string, diags []diagnosticHead) (starts []int, end int, ok bool) {
	if len(diags) == 0 {
		return nil, 0, false
	}
	pos := 0
	for i, d := range diags {
		line := d.line()
		at := 0
		if i == 0 {
			at = strings.Index(text, line)
			if at < 0 || at > 0 && text[at-1] != '\n' {
				return nil, 0, false
			}
		} else {
			at = strings.Index(text[pos:], "\n\n"+line)
			if at < 0 {
				return nil, 0, false
			}
			at += pos + 2
		}
		starts = append(starts, at)
		pos = at + len(line)
	}
	last := strings.Index(text[pos:], "\n\n")
	if last < 0 {
		return nil, 0, false
	}
	return starts, pos + last + 2, true
}
