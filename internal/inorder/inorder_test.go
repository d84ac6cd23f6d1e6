package inorder

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/structls/structls/internal/workers"
)

// TestRunBoundsPending: Run delivers every item in order, and its
// workers never hold more than its window of undelivered results (Window,
// or RunWindow's own), however slow delivery is — the bound that keeps a
// streamed search's memory flat.
func TestRunBoundsPending(t *testing.T) {
	for _, window := range []int{Window, 1, 8, 512} {
		const n = 2000
		var pending, most atomic.Int64
		next := 0
		err := RunWindow(context.Background(), n, window, func() func(int) int {
			return func(i int) int {
				p := pending.Add(1)
				for m := most.Load(); p > m && !most.CompareAndSwap(m, p); m = most.Load() {
				}
				return i
			}
		}, func(i, r int) error {
			pending.Add(-1)
			if i != next || r != i {
				return fmt.Errorf("delivered item %d (result %d); want %d", i, r, next)
			}
			next++
			if i%97 == 0 {
				time.Sleep(time.Millisecond) // a slow client: the workers must wait, not pile up
			}
			return nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Pending counts the result being delivered too: window wait, one is taken.
		if next != n || most.Load() > int64(window)+1 {
			t.Errorf("window %d: %d of %d delivered; at most %d results pending; want all, at most %d", window, next, n, most.Load(), window+1)
		}
	}
}

// TestRunWindowRunsAhead: with a wide window, a worker goes on through
// the items after a slow one instead of waiting for it to be delivered:
// here item 0 ends only once the 299 after it are done.
func TestRunWindowRunsAhead(t *testing.T) {
	defer workers.SetCount(workers.SetCount(2)) // two workers, whatever the machine
	const n, window = 300, 512
	var release sync.WaitGroup
	release.Add(1)
	var others atomic.Int64
	done := make(chan error, 1)
	go func() {
		done <- RunWindow(context.Background(), n, window, func() func(int) int {
			return func(i int) int {
				if i == 0 {
					release.Wait()
				} else if others.Add(1) == n-1 {
					release.Done()
				}
				return i
			}
		}, func(int, int) error { return nil }, nil)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("only %d of the %d items after a slow one were worked on while it ran; want all (the window is %d)", others.Load(), n-1, window)
	}
}

// TestRunCancelled: a cancelled context ends Run with its error,
// without waiting for the remaining work.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var worked atomic.Int64
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, 1_000_000, func() func(int) int {
			return func(i int) int {
				if worked.Add(1) == 100 {
					cancel()
				}
				return i
			}
		}, func(int, int) error { return nil }, nil)
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || worked.Load() > 1000 {
			t.Errorf("error %v after %d items worked on; want context.Canceled soon after the 100th", err, worked.Load())
		}
	case <-time.After(time.Minute):
		t.Fatal("Run did not return after its context was cancelled")
	}
}

// TestRunDeliversOneAtATime: whichever worker delivers, deliver is never
// called twice at once, every item comes once and in order, and an error it
// returns ends the run with that error, the items after it undelivered.
func TestRunDeliversOneAtATime(t *testing.T) {
	defer workers.SetCount(workers.SetCount(4))
	const n = 5000
	for _, failAt := range []int{-1, 0, 2500, n - 1} {
		var inDeliver atomic.Int64
		next := 0
		stop := errors.New("stop")
		err := RunWindow(context.Background(), n, 16, func() func(int) int {
			return func(i int) int {
				if i%7 == 0 {
					time.Sleep(time.Microsecond * time.Duration(i%50)) // items finish out of order
				}
				return i
			}
		}, func(i, r int) error {
			if inDeliver.Add(1) != 1 {
				t.Errorf("deliver(%d) called while another delivery ran", i)
			}
			defer inDeliver.Add(-1)
			if i%13 == 0 {
				time.Sleep(20 * time.Microsecond) // a delivery long enough for the next item to finish meanwhile
			}
			if i != next || r != i {
				t.Errorf("delivered item %d (result %d); want %d", i, r, next)
			}
			next++
			if i == failAt {
				return stop
			}
			return nil
		}, nil)
		switch {
		case failAt < 0 && (err != nil || next != n):
			t.Errorf("no failure: %v after %d of %d delivered; want nil after all", err, next, n)
		case failAt >= 0 && (!errors.Is(err, stop) || next != failAt+1):
			t.Errorf("failing at %d: %v after %d delivered; want %v after %d", failAt, err, next, stop, failAt+1)
		}
	}
}
