package syntax

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestByteBudget: concurrent holders never exceed the limit, a request
// larger than the limit runs alone (it takes the whole budget), and a
// waiter whose context ends gives up with ErrCancelled.
func TestByteBudget(t *testing.T) {
	b := newByteBudget(100)
	var held, most atomic.Int64
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			n := int64(10 + (i%5)*30) // 10 .. 130 bytes; 130 takes the whole budget
			taken, err := b.acquire(context.Background(), n)
			if err != nil {
				t.Error(err)
				return
			}
			h := held.Add(taken)
			for m := most.Load(); h > m && !most.CompareAndSwap(m, h); m = most.Load() {
			}
			time.Sleep(100 * time.Microsecond)
			held.Add(-taken)
			b.release(taken)
		})
	}
	wg.Wait()
	if most.Load() > 100 || held.Load() != 0 {
		t.Errorf("at most %d bytes held at once (limit 100), %d left held; want ≤ 100 and 0", most.Load(), held.Load())
	}

	taken, _ := b.acquire(context.Background(), 1000)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := b.acquire(ctx, 1); !errors.Is(err, ErrCancelled) {
		t.Errorf("waiting on a full budget past the context's end: %v; want ErrCancelled", err)
	}
	b.release(taken)
	done := make(chan error, 1)
	go func() {
		n, err := b.acquire(context.Background(), 50)
		b.release(n)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the budget stayed blocked after a cancelled waiter left and the holder released")
	}
}
