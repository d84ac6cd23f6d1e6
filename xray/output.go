package xray

import (
	"context"
	"sync"
)

// Output bounds. An evaluator decides how much a run outputs: a 16 MB
// string in 50 matches is 800 MB of JSON, and 20 files of 100,000 matches
// each are 2 million matches. Three bounds keep a run's memory flat:
//
//   - a file's output (its matches with their line contents and fields,
//     and its value) is at most MaxFileOutputBytes, else the file gets an
//     InvalidEvaluatorReturn and contributes nothing;
//   - the workers hold at most maxBytesInFlight of evaluated files not yet
//     delivered (besides the one delivered next), however few files that
//     is: a slow reader makes them wait rather than pile results up;
//   - a run outputs at most maxRunOutputStreamed (streamed: nothing is
//     kept, this bounds what a client is sent) or maxRunOutputKept (kept
//     whole, then encoded): the files past it are left out, and the result
//     is partial, with a warning that says so.
//
// Sizes are estimates of the JSON (matchSize, errorSize), a little over for most.
const MaxFileOutputBytes = 64 << 20

// The other bounds are variables for the tests.
var (
	maxBytesInFlight     = 64 << 20
	maxRunOutputStreamed = 1 << 30
	maxRunOutputKept     = 256 << 20
)

// matchOverhead is about the JSON of a match (or an error) besides its
// strings: the names and punctuation, the line number and the range; and
// astSize about that of a node of an explore-mode kind tree.
const (
	matchOverhead = 192
	astSize       = 256
)

// matchSize is about the bytes of a match's JSON, besides its fields.
func matchSize(m *Match) int {
	return matchOverhead + len(m.Path) + len(m.URI) + len(m.Language) + len(m.LineContent)
}

// errorSize is about the bytes of an evaluation error's JSON.
func errorSize(e *EvaluationError) int {
	return matchOverhead + len(e.Path) + len(e.URI) + len(e.ErrorMessage)
}

// flight bounds the bytes of evaluated files waiting to be delivered in
// order. A worker that has evaluated file i waits (acquire) until its
// result fits, or until i is the file delivered next — which never waits,
// so the run cannot stall on a large file.
type flight struct {
	mu      sync.Mutex
	room    *sync.Cond
	held    int  // bytes of results not yet delivered
	next    int  // the file delivered next
	stopped bool // the run ended: nobody waits any more
}

func newFlight(ctx context.Context) (*flight, func()) {
	f := &flight{}
	f.room = sync.NewCond(&f.mu)
	stop := context.AfterFunc(ctx, f.stop)
	return f, func() { stop(); f.stop() }
}

// acquire waits until file i's result of size bytes may be held.
func (f *flight) acquire(i, size int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for !f.stopped && i != f.next && f.held+size > maxBytesInFlight {
		f.room.Wait()
	}
	f.held += size
}

// delivered releases file i's bytes: the file after it is delivered next.
func (f *flight) delivered(i, size int) {
	f.mu.Lock()
	f.held -= size
	f.next = i + 1
	f.mu.Unlock()
	f.room.Broadcast()
}

// stop wakes every waiting worker for good.
func (f *flight) stop() {
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
	f.room.Broadcast()
}
