package xray

import (
	"strings"
)

// Batch is one partial result of a streamed run (SearchStream): the
// matches of some candidate files, in their final order, and with format
// "text" their rendering. The reply that follows the batches holds no
// matches and, with format "text", only the rest of the text (metadata,
// errors, the summary): concatenating the batches with the reply gives
// exactly the reply of the same query run unstreamed.
type Batch struct {
	Matches []Match `json:"matches"`
	Text    string  `json:"text,omitempty"`
}

// batchMatches is how many matches a batch gathers before it is sent: big
// enough that the per-message cost vanishes, small enough that nothing
// large is held (a batch of X-Ray matches is a few hundred KB of JSON).
const batchMatches = 1024

// collector takes each evaluated file's outcome, in candidate order, into
// the result — its matches into res.Matches, or into batches for emit when
// the run streams.
type collector struct {
	res     *Result
	emit    func(Batch) error // nil: keep every match in res
	text    bool              // render the matches as text
	pending []Match           // matches not yet emitted
	matches int               // matches collected in all
	render  matchText
	out     strings.Builder // the matches' text, when not streaming
}

// add takes one file's outcome.
func (c *collector) add(r *fileResult) error {
	c.res.FilesEvaluated++
	c.res.EvaluationErrors = append(c.res.EvaluationErrors, r.errors...)
	c.res.FileMetadata = append(c.res.FileMetadata, r.metadata...)
	c.matches += len(r.matches)
	if c.emit == nil {
		c.res.Matches = append(c.res.Matches, r.matches...)
		if c.text {
			c.render.write(&c.out, r.matches)
		}
		return nil
	}
	switch {
	case len(c.pending) == 0 && len(r.matches) >= batchMatches:
		c.pending = r.matches // a file that fills a batch by itself goes as it is
	case c.pending == nil:
		c.pending = append(make([]Match, 0, 2*batchMatches), r.matches...) // room for a batch, not regrown match by match
	default:
		c.pending = append(c.pending, r.matches...)
	}
	if len(c.pending) >= batchMatches {
		return c.flush()
	}
	return nil
}

// flush emits the pending matches, if any.
func (c *collector) flush() error {
	if c.emit == nil || len(c.pending) == 0 {
		return nil
	}
	b := Batch{Matches: c.pending}
	if c.text {
		var t strings.Builder
		c.render.write(&t, c.pending)
		b.Text = t.String()
	}
	c.pending = nil // the batch owns them now; they are not kept
	return c.emit(b)
}

// finish renders the text of the whole result (or of its tail, when the
// matches went out in batches).
func (c *collector) finish() {
	if !c.text {
		return
	}
	writeTail(&c.out, c.res, c.matches)
	c.res.Text = c.out.String()
}
