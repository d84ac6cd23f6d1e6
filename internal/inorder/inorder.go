// Package inorder runs work on many items in parallel and delivers the
// results in item order as they become ready, holding at most a small
// window of undelivered results: what lets a search stream its results in
// their final order while its files are worked on in parallel.
package inorder

import (
	"context"
	"sync"

	"github.com/structls/structls/internal/workers"
)

// Window is how far the workers of Run may run ahead of the item
// delivered last: the results waiting for delivery are those of at most
// this many items, however many matches they hold in all.
const Window = 64

// Run runs work on items 0..n-1 with GOMAXPROCS workers (each made by
// newWorker, so it can keep its own buffers) and hands each result to
// deliver in item order, as soon as every earlier item has been delivered.
// This is what lets a search stream its matches in their final order while
// the files are searched in parallel, and drop each result once it is
// delivered.
//
// deliver is called one call at a time, by the worker that finished the
// item every earlier one waited for (it then delivers the items after it
// that are ready too, and goes back to work): nobody sleeps and wakes once
// per item just to deliver it (a futex wake-up and a thread switch each,
// thousands of them in a search), and a slow delivery holds up one worker,
// the others going on until the window is full.
//
// progress, when not nil, is told how many items are done out of n. Once
// ctx ends or deliver returns an error, the remaining items are skipped
// (their results are zero values, not delivered) and Run returns that
// error, or ctx's.
func Run[T any](ctx context.Context, n int, newWorker func() func(i int) T, deliver func(i int, result T) error,
	progress func(done, total int)) error {
	return RunWindow(ctx, n, Window, newWorker, deliver, progress)
}

// RunWindow is Run with its own window (at least 1): a wider one keeps a
// worker busy through a longer run of small items while another works on a
// slow one (with 64, X-Ray's workers over the Go standard library waited
// about a second in all behind its largest files, on a loaded machine),
// and holds the results of more items.
func RunWindow[T any](ctx context.Context, n, window int, newWorker func() func(i int) T, deliver func(i int, result T) error,
	progress func(done, total int)) error {
	window = max(window, 1)
	var (
		mu         sync.Mutex
		room       = sync.NewCond(&mu) // wakes the workers waiting for the window to move on
		results    = make([]T, window)
		ready      = make([]bool, window)
		next       int  // the next item a worker takes
		delivered  int  // items delivered (or being delivered) so far
		done       int  // items worked on so far
		delivering bool // a worker is delivering: the others leave it to it
		stopped    bool
		failed     error // what stopped the run
	)
	// deliverReady delivers the items ready from the next one on, calling
	// deliver without mu held; it is entered and left with mu held, by the
	// one worker that set delivering.
	deliverReady := func() {
		for !stopped && delivered < n && ready[delivered%window] {
			i := delivered
			r := results[i%window]
			var zero T
			results[i%window], ready[i%window] = zero, false
			delivered++
			room.Broadcast()
			mu.Unlock()
			err := ctx.Err()
			if err == nil {
				err = deliver(i, r)
			}
			mu.Lock()
			if err != nil {
				failed, stopped = err, true
				room.Broadcast()
			}
		}
		delivering = false
	}
	var wg sync.WaitGroup
	for range min(workers.Count(), max(n, 1)) {
		work := newWorker()
		wg.Go(func() {
			mu.Lock()
			defer mu.Unlock()
			for {
				for !stopped && next < n && next >= delivered+window {
					room.Wait()
				}
				if stopped || next >= n {
					return
				}
				i := next
				next++
				mu.Unlock()
				var r T
				if ctx.Err() == nil {
					r = work(i)
				}
				mu.Lock()
				results[i%window], ready[i%window] = r, true
				done++
				if i == delivered && !delivering {
					delivering = true
					deliverReady()
				}
				if progress != nil {
					d := done
					mu.Unlock()
					progress(d, n) // counts may arrive out of order, as Snapshot.WalkParallel's
					mu.Lock()
				}
			}
		})
	}
	wg.Wait()
	if failed == nil && delivered < n {
		failed = ctx.Err() // the items after the end were skipped without a delivery to notice
	}
	return failed
}
