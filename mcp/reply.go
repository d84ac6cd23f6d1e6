package mcp

import (
	"fmt"
	"strings"

	"github.com/structls/structls/workspace"
)

// MaxReplyBytes caps the text of every tool reply (the seed tools' 50 KB):
// a page holds as many whole entries (matches, files, lines) as fit, and its
// last line names the exact skip that continues it.
const MaxReplyBytes = 50 * 1024

// tailReserve is the part of the cap kept for the notes after the entries
// and the continuation line.
const tailReserve = 4 * 1024

// page is a reply text being built: entries while they fit, then notes.
type page struct {
	b     strings.Builder
	limit int  // bytes for the entries
	shown int  // entries written (a cut one included)
	full  bool // an entry did not fit: the page ends here
	cut   bool // the first entry alone was over the cap and was cut
}

func newPage() *page { return &page{limit: MaxReplyBytes - tailReserve} }

// head writes a short text that is not an entry (a state, a title)
// before the entries: it takes room from them, but the first entry is
// still cut to fit rather than left out.
func (p *page) head(text string) { p.b.WriteString(text) }

// add writes an entry when it fits and reports whether it did. An entry
// that does not fit ends the page — except the first, which is cut to
// fit, so that every page moves on by at least one entry.
func (p *page) add(entry string) bool {
	if p.full {
		return false
	}
	if p.b.Len()+len(entry) <= p.limit {
		p.b.WriteString(entry)
		p.shown++
		return true
	}
	p.full = true
	if p.shown > 0 {
		return false
	}
	p.b.WriteString(workspace.CutToBytes(entry, p.limit-p.b.Len()-64))
	fmt.Fprintf(&p.b, "… (cut: this entry alone is over %d KB)\n", MaxReplyBytes/1024)
	p.shown, p.cut = 1, true
	return true
}

// finish ends the page with its notes and, when more follows, a last line
// ending in the exact skip=N that continues it. The whole stays under
// MaxReplyBytes: notes that do not fit are cut.
func (p *page) finish(notes []string, more string, next int) string {
	tail := ""
	if len(notes) > 0 {
		tail = strings.Join(notes, "\n") + "\n"
		if p.b.Len() > 0 {
			tail = "\n" + tail
		}
	}
	last := ""
	if more != "" {
		last = fmt.Sprintf("\n%s skip=%d\n", more, next)
	}
	room := MaxReplyBytes - p.b.Len() - len(last)
	if len(tail) > room {
		tail = workspace.CutToBytes(tail, room-8) + "…\n"
	}
	return p.b.String() + tail + last
}
