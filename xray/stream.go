package xray

import (
	"errors"
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
// large is held (a batch of X-Ray matches is a few hundred KB of JSON);
// batchBytes sends a batch of large matches sooner.
const (
	batchMatches = 1024
	batchBytes   = 4 << 20
)

// errOutputLimit stops a run whose output reached its limit (output.go).
var errOutputLimit = errors.New("the run's output reached its limit")

// collector takes each evaluated file's outcome, in candidate order, into
// the result — its matches into res.Matches, or into batches for emit when
// the run streams.
type collector struct {
	res         *Result
	emit        func(Batch) error // nil: keep every match in res
	text        bool              // render the matches as text
	pending     []Match           // matches not yet emitted
	pendingSize int               // about the bytes of their JSON
	matches     int               // matches found in all
	skip        int               // matches still to leave out (the query's skip)
	output      int               // about the bytes of the output so far (matchSize)
	limit       int               // the most output a run may have
	limited     bool              // a file was left out at the limit
	page        textPage          // the text rendering, under its cap
	out         strings.Builder   // the matches' text, when not streaming
}

// add takes one file's outcome.
func (c *collector) add(r *fileResult) error {
	if c.output+r.size > c.limit {
		c.limited = true
		return errOutputLimit
	}
	c.output += r.size
	c.res.FilesEvaluated++
	c.res.EvaluationErrors = append(c.res.EvaluationErrors, r.errors...)
	c.res.FileMetadata = append(c.res.FileMetadata, r.metadata...)
	c.matches += len(r.matches)
	ms := r.matches
	if c.skip > 0 {
		n := min(c.skip, len(ms))
		ms, c.skip = ms[n:], c.skip-n
	}
	if c.text && c.page.Full {
		return nil // past the text's cap: counted, not kept
	}
	if c.emit == nil {
		if c.text {
			ms = c.page.fit(&c.out, ms)
		}
		c.res.Matches = append(c.res.Matches, ms...)
		return nil
	}
	// A file's matches go out in batches of at most batchMatches, or about
	// batchBytes: a file of 100,000 matches is a hundred messages, not one
	// of tens of MB copied at each step on its way. A whole batch of them is
	// a part of the file's slice, not a copy.
	each := r.size / max(1, len(r.matches)) // about the bytes of one match
	for len(ms) > 0 {
		n := min(len(ms), batchMatches-len(c.pending), max(1, (batchBytes-c.pendingSize)/max(1, each)))
		if len(c.pending) == 0 {
			c.pending = ms[:n:n]
		} else {
			c.pending = append(c.pending, ms[:n]...)
		}
		ms = ms[n:]
		c.pendingSize += n * each
		if len(c.pending) >= batchMatches || c.pendingSize >= batchBytes {
			if err := c.flush(); err != nil {
				return err
			}
		}
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
		b.Matches = c.page.fit(&t, c.pending)
		b.Text = t.String()
	}
	c.pending, c.pendingSize = nil, 0 // the batch owns them now; they are not kept
	if len(b.Matches) == 0 && b.Text == "" {
		return nil
	}
	return c.emit(b)
}

// finish renders the text of the whole result (or of its tail, when the
// matches went out in batches).
func (c *collector) finish() {
	c.res.MatchCount = c.matches
	if !c.text {
		return
	}
	c.page.finish(&c.out, c.res)
	c.res.Text = c.out.String()
}
