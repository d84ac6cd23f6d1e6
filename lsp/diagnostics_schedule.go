package lsp

import (
	"context"
	"runtime"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/structls/structls/workspace"
)

// Scheduling live diagnostics. A document is checked off the read loop,
// never twice at once, and always at its newest version: a document that
// changes while its check runs is checked again when that check ends. The
// first change after a quiet spell is checked at once (a keystroke's
// squiggle should not wait); changes that follow it within the delay are
// debounced: they are checked once the document has stayed unchanged for
// the delay, so a burst (a paste in many parts, a macro, an editor's
// multi-cursor edit) costs one more check, not one per change. A result is published only if its document
// version is still the server's newest when the publication is queued and
// again when it is sent (publishQueue), so the client never sees the
// diagnostics of version N once version N+1 has arrived.

// diagnosticsDelay is how long a document changed in a burst must stay
// unchanged before it is checked, and how quiet it must have been for a
// change to be checked at once.
const diagnosticsDelay = 30 * time.Millisecond

// checkScheduler runs checks of documents, debounced and coalesced.
type checkScheduler struct {
	ctx     context.Context // ends the checks when the session ends
	delay   time.Duration
	now     func() time.Time                           // the clock (tests stop it)
	current func(uri string) *workspace.Document       // the newest version of an open document, nil when closed
	check   func(context.Context, *workspace.Document) // checks one version and publishes the result
	slots   chan struct{}                              // bounds the checks running at once (of all documents)

	mu   sync.Mutex
	docs map[string]*scheduledCheck
}

// scheduledCheck is the scheduling state of one open document.
type scheduledCheck struct {
	timer   *time.Timer
	last    time.Time // when the document last changed
	running bool      // a check of this document runs
	again   bool      // the document changed while it ran: check again after it
	cancel  context.CancelFunc
}

func newCheckScheduler(ctx context.Context, delay time.Duration, current func(string) *workspace.Document,
	check func(context.Context, *workspace.Document)) *checkScheduler {
	return &checkScheduler{ctx: ctx, delay: delay, now: time.Now, current: current, check: check,
		slots: make(chan struct{}, runtime.GOMAXPROCS(0)), docs: map[string]*scheduledCheck{}}
}

// changed notes that the document with the URI was opened or changed: it is
// checked at once after a quiet spell, else once it has been quiet for the
// delay. A check of an older version still running is cancelled: its
// result could not be published.
func (c *checkScheduler) changed(uri string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sc := c.docs[uri]
	if sc == nil {
		sc = &scheduledCheck{}
		c.docs[uri] = sc
	}
	if sc.cancel != nil {
		sc.cancel()
	}
	now := c.now()
	wait := c.delay
	if !sc.running && now.Sub(sc.last) >= c.delay {
		wait = 0
	}
	sc.last = now
	if sc.timer == nil {
		sc.timer = time.AfterFunc(wait, func() { c.run(uri, sc) })
		return
	}
	sc.timer.Reset(wait)
}

// forget drops a closed document: its pending check is not run, and a
// running one is cancelled (its result could not be published anyway).
func (c *checkScheduler) forget(uri string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sc := c.docs[uri]; sc != nil {
		sc.timer.Stop()
		if sc.cancel != nil {
			sc.cancel()
		}
		delete(c.docs, uri)
	}
}

// run checks the document, unless a check of it already runs (which then
// runs once more when it ends).
func (c *checkScheduler) run(uri string, sc *scheduledCheck) {
	c.mu.Lock()
	if c.docs[uri] != sc { // closed (and maybe reopened) since the timer was set
		c.mu.Unlock()
		return
	}
	if sc.running {
		sc.again = true
		c.mu.Unlock()
		return
	}
	sc.running = true
	for {
		ctx, cancel := context.WithCancel(c.ctx)
		sc.cancel = cancel
		c.mu.Unlock()
		c.checkInSlot(ctx, uri)
		cancel()
		c.mu.Lock()
		sc.cancel = nil
		if !sc.again || c.docs[uri] != sc {
			sc.running = false
			c.mu.Unlock()
			return
		}
		sc.again = false
	}
}

// checkInSlot checks the newest version of the document once a slot is
// free (a reload of the rules re-checks every open document: they take
// turns rather than all parse at once).
func (c *checkScheduler) checkInSlot(ctx context.Context, uri string) {
	select {
	case c.slots <- struct{}{}:
		defer func() { <-c.slots }()
	case <-ctx.Done():
		return
	}
	if doc := c.current(uri); doc != nil {
		c.check(ctx, doc)
	}
}

// publishQueue sends publishDiagnostics notifications from one goroutine,
// in the order they were queued, so the read loop and the checks never wait
// on the client. Only the newest publication per document waits in the
// queue. A publication is for one version of a document (nil: the document
// was closed, its diagnostics are cleared) and is dropped, both when queued
// and when about to be sent, if that is no longer the newest the server has.
type publishQueue struct {
	current func(uri string) *workspace.Document
	send    func(publication)

	mu      sync.Mutex
	pending map[string]publication
	order   []string // URIs of pending, oldest first
	wake    chan struct{}
}

// publication is the diagnostics of one document version.
type publication struct {
	uri         string
	doc         *workspace.Document // nil: the document is closed, clear its diagnostics
	diagnostics []protocol.Diagnostic
}

func newPublishQueue(current func(string) *workspace.Document, send func(publication)) *publishQueue {
	return &publishQueue{current: current, send: send, pending: map[string]publication{}, wake: make(chan struct{}, 1)}
}

// offer queues p if its document version is still the newest; it reports
// whether it did.
func (q *publishQueue) offer(p publication) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.current(p.uri) != p.doc {
		return false
	}
	if _, queued := q.pending[p.uri]; !queued {
		q.order = append(q.order, p.uri)
	}
	q.pending[p.uri] = p
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return true
}

// next takes the oldest pending publication that is still current.
func (q *publishQueue) next() (publication, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.order) > 0 {
		uri := q.order[0]
		q.order = q.order[1:]
		p := q.pending[uri]
		delete(q.pending, uri)
		if q.current(uri) == p.doc {
			return p, true
		}
	}
	return publication{}, false
}

// run sends publications until ctx ends.
func (q *publishQueue) run(ctx context.Context) {
	for {
		select {
		case <-q.wake:
			for p, ok := q.next(); ok; p, ok = q.next() {
				q.send(p)
			}
		case <-ctx.Done():
			return
		}
	}
}
