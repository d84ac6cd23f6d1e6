package warmup

import (
	"context"
	"sync"
)

// Gate keeps background parsing out of the way of requests: the server
// marks each request with Busy, and the background worker calls Wait before
// each file. Wait returns only while no request runs, with a context that
// may be cancelled as soon as one starts, so the parse in progress is
// abandoned within tree-sitter's polling interval and the CPU goes to the
// request. The zero Gate is open; a nil *Gate is always open.
type Gate struct {
	mu        sync.Mutex
	running   int
	idle      chan struct{}              // closed while running == 0; nil means closed
	interrupt map[int]context.CancelFunc // of the contexts Wait handed out and not yet released
	next      int                        // the key of the next one
}

// Busy marks a request as running until the returned func is called.
func (g *Gate) Busy() (done func()) {
	g.mu.Lock()
	g.running++
	if g.running == 1 {
		g.idle = make(chan struct{})
	}
	for _, cancel := range g.interrupt {
		cancel()
	}
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.running--
			if g.running == 0 {
				close(g.idle)
				g.idle = nil
			}
		})
	}
}

// Wait blocks while a request runs, then returns a context for one piece of
// work, and the func that releases it. The context ends with ctx and, when
// interruptible, as soon as a request starts. Wait fails only with ctx's
// error.
func (g *Gate) Wait(ctx context.Context, interruptible bool) (context.Context, func(), error) {
	if g == nil {
		return ctx, func() {}, ctx.Err()
	}
	for {
		g.mu.Lock()
		idle := g.idle
		if idle == nil && !interruptible {
			g.mu.Unlock()
			return ctx, func() {}, ctx.Err()
		}
		if idle == nil {
			work, cancel := context.WithCancel(ctx)
			if g.interrupt == nil {
				g.interrupt = map[int]context.CancelFunc{}
			}
			key := g.next
			g.next++
			g.interrupt[key] = cancel
			g.mu.Unlock()
			return work, func() { g.release(key) }, ctx.Err()
		}
		g.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx, func() {}, ctx.Err()
		}
	}
}

// release cancels and forgets the context Wait handed out under key.
func (g *Gate) release(key int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.interrupt[key]()
	delete(g.interrupt, key)
}
