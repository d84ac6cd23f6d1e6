package outline

import (
	"errors"
	"fmt"
	"strings"

	"github.com/structls/structls/workspace"
)

// Batch is one partial result of a streamed outline (SearchStream): the
// next files of the page, in order, and with format "text" their
// rendering. Concatenating the batches' files (and texts) with the final
// reply's gives the reply the same query gets unstreamed.
type Batch struct {
	Files []File `json:"files"`
	Text  string `json:"text,omitempty"`
}

// textTailReserve is the part of workspace.MaxTextBytes kept for what
// follows the files: the notes and the line that continues the page.
const textTailReserve = 4 * 1024

// batchBytes is about how much JSON (or text) a streamed batch holds:
// files go out together up to it, in one notification, rather than one
// each (typeorm's 3,571 files were as many notifications, each a write
// and a read of the connection, and a wake-up on both sides).
const batchBytes = 64 << 10

// errPageDone ends the outline once its page is complete and the file
// after it is known: the files after that one need no outline.
var errPageDone = errors.New("the page is complete")

// page takes the outlines of the files in order and keeps those of one
// page: the files with items (or the one file named) from skip on, at
// most limit of them, and with format "text" at most the text cap of
// their rendering. It hands them to emit in batches of about batchBytes,
// or collects them into the Result; nothing else of a file is kept once
// it is passed on. Once the
// page is full, the next file with items ends the outline (errPageDone)
// with limitReached and nextSkip.
type page struct {
	res        *Result
	skip       int
	limit      int  // files of the page; 0: all
	text       bool // render the files
	textOnly   bool // the text alone: no files in the result or the batches
	singleFile bool // one file was outlined: it is listed even without items
	emit       func(Batch) error
	pending    Batch           // the files and text not yet emitted
	pendingTxt strings.Builder // the text of pending
	pendingLen int             // about the bytes pending holds
	render     *renderer
	rendered   strings.Builder // the rendering of collected files (emit == nil)
	bytes      int             // bytes of files rendered
	listed     int             // files listed so far, those skipped included
	shown      int             // files of the page
	full       bool            // no more file fits in the page
	capped     bool            // the text cap filled it
}

// add takes the next file's outline.
func (p *page) add(f *File) error {
	if len(f.Items) == 0 && !p.singleFile {
		return nil
	}
	p.listed++
	if p.listed <= p.skip {
		return nil
	}
	if p.full || (p.limit > 0 && p.shown == p.limit) {
		return p.done()
	}
	var text strings.Builder
	if p.text {
		render := *p.render // a file that does not fit must not move the budget on
		render.file(&text, f)
		if p.bytes+text.Len() > workspace.MaxTextBytes-textTailReserve {
			p.full, p.capped = true, true
			if p.shown > 0 {
				return p.done()
			}
			cut := cutAtLine(text.String(), workspace.MaxTextBytes-textTailReserve-128)
			text.Reset()
			text.WriteString(cut)
			fmt.Fprintf(&text, "… (cut: this file's outline alone is over %d KB; the names or signatures view is shorter)\n", workspace.MaxTextBytes/1024)
		}
		*p.render = render
		p.bytes += text.Len()
	}
	p.shown++
	p.res.ItemCount += len(f.Items)
	var files []File
	if !p.textOnly {
		files = []File{*f}
	}
	if p.emit == nil {
		p.res.Files = append(p.res.Files, files...)
		p.rendered.WriteString(text.String())
		return nil
	}
	p.pending.Files = append(p.pending.Files, files...)
	p.pendingTxt.WriteString(text.String())
	p.pendingLen += text.Len()
	for i := range files {
		p.pendingLen += 128 + countItems(files[i].Items)*itemJSONBytes
	}
	if p.pendingLen >= batchBytes {
		return p.flush()
	}
	return nil
}

// flush emits the files and text pending, if any.
func (p *page) flush() error {
	if p.emit == nil || len(p.pending.Files) == 0 && p.pendingTxt.Len() == 0 {
		return nil
	}
	p.pending.Text = p.pendingTxt.String()
	err := p.emit(p.pending)
	clear(p.pending.Files) // emitted: nothing keeps their items
	p.pending = Batch{Files: p.pending.Files[:0]}
	p.pendingTxt.Reset()
	p.pendingLen = 0
	return err
}

// done ends a full page at the file after it.
func (p *page) done() error {
	next := p.skip + p.shown
	p.res.LimitReached, p.res.NextSkip = true, &next
	return errPageDone
}

// finish completes the Result: the text of collected files, or the tail
// of streamed ones, with the line that continues a page that stopped
// early, ending in the exact skip=N.
func (p *page) finish() {
	if !p.text {
		return
	}
	var b strings.Builder
	b.WriteString(p.rendered.String())
	p.render.tail(&b)
	switch {
	case p.res.LimitReached && p.capped:
		fmt.Fprintf(&b, "\nShowing files %d-%d (the %d KB text cap); for the rest repeat the query with skip=%d\n",
			p.skip+1, p.skip+p.shown, workspace.MaxTextBytes/1024, *p.res.NextSkip)
	case p.res.LimitReached:
		fmt.Fprintf(&b, "\nResult limit reached (files %d-%d); for the rest repeat the query with skip=%d\n",
			p.skip+1, p.skip+p.shown, *p.res.NextSkip)
	}
	p.res.Text = b.String()
}

// cutAtLine returns the longest prefix of s of at most n bytes that ends
// at a line end, or on a character boundary when its first line is longer.
func cutAtLine(s string, n int) string {
	cut := workspace.CutToBytes(s, n)
	if i := strings.LastIndexByte(cut, '\n'); i >= 0 {
		return cut[:i+1]
	}
	return cut + "\n"
}
