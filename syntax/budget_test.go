package syntax

import (
	"context"
	"errors"
	"strings"
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
			taken, err := b.acquire(context.Background(), n, nil)
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

	taken, _ := b.acquire(context.Background(), 1000, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := b.acquire(ctx, 1, nil); !errors.Is(err, ErrCancelled) {
		t.Errorf("waiting on a full budget past the context's end: %v; want ErrCancelled", err)
	}
	b.release(taken)
	done := make(chan error, 1)
	go func() {
		n, err := b.acquire(context.Background(), 50, nil)
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

// TestWaitingScratchGivesBackItsArena: a parse that has to wait for the
// parse budget (while a large file parses) first gives its scratch's arena
// back, the part kept from the last file included, so that the process's
// peak is the large parse's alone; then it parses as usual.
func TestWaitingScratchGivesBackItsArena(t *testing.T) {
	src := []byte("package p\n" + strings.Repeat("func f() { x := []int{1, 2, 3}; y := x[0] + 2 }\n", 2000)) // 100 KB: more than an arena's first chunk
	var scratch Scratch
	defer scratch.Release()
	if _, err := ParseSubtrees(context.Background(), goLang, src, 0, &scratch); err != nil {
		t.Fatal(err)
	}
	kept := scratch.reservedBytes()
	if kept == 0 {
		t.Fatal("the scratch kept no arena after its parse; the test needs one")
	}
	held, err := parsingBytes.acquire(context.Background(), DefaultParseBudget, nil) // a large file's parse
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ParseSubtrees(context.Background(), goLang, src, 0, &scratch)
		done <- err
	}()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		parsingBytes.mu.Lock()
		waiting := parsingBytes.waiting
		parsingBytes.mu.Unlock()
		if waiting > 0 && scratch.reservedBytes() == 0 {
			break
		}
		if time.Now().After(deadline) {
			parsingBytes.release(held)
			t.Fatalf("while waiting for the budget the scratch holds %d bytes of arena (%d waiting); want 0", scratch.reservedBytes(), waiting)
		}
	}
	parsingBytes.release(held)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if scratch.reservedBytes() == 0 {
		t.Error("after the wait the parse ran without an arena")
	}
}

// TestLargeParseReturnsFreeHeap: a file larger than the parse budget,
// which parses alone, first has the Go heap's free memory returned to the
// kernel when its context's options ask for it
// (ParseOptions.FreeHeapBeforeLoneParses); a file within the budget, or any
// file in a server, does not. The budget is the context's too.
func TestLargeParseReturnsFreeHeap(t *testing.T) {
	saved := returnFreeHeap
	defer func() { returnFreeHeap = saved }()
	returned := 0
	returnFreeHeap = func() { returned++ }
	src := []byte("package p\n" + strings.Repeat("func f() { g(1) }\n", 100)) // 1.8 KB
	for _, tc := range []struct {
		budget int64
		on     bool // FreeHeapBeforeLoneParses set (structls astgrep), or not (a server)
		want   int
	}{{1 << 20, true, 0}, {1 << 10, true, 1}, {1 << 10, false, 0}} {
		ctx := WithParseOptions(context.Background(), ParseOptions{Budget: tc.budget, FreeHeapBeforeLoneParses: tc.on})
		returned = 0
		if _, err := Parse(ctx, goLang, src); err != nil {
			t.Fatal(err)
		}
		if returned != tc.want {
			t.Errorf("a %d-byte file under a %d-byte budget (switch on: %v) returned the free heap %d times; want %d", len(src), tc.budget, tc.on, returned, tc.want)
		}
	}
}

// TestArenaKeepIsTheContexts: a scratch's arena keeps what the options of
// its first parse's context say, and the process default otherwise.
func TestArenaKeepIsTheContexts(t *testing.T) {
	src := []byte("package p\nfunc f() {}\n")
	for _, keep := range []int64{0, 1 << 20, 12 << 20} {
		var s Scratch
		ctx := WithParseOptions(context.Background(), ParseOptions{ArenaKeep: keep})
		if _, err := (*Cache)(nil).ParseWith(ctx, goLang, src, nil, nil, &s); err != nil {
			t.Fatal(err)
		}
		want := keep
		if keep == 0 {
			want = arenaKeep.Load()
		}
		if got := int64(s.native().keep); got != want {
			t.Errorf("ArenaKeep %d: the scratch keeps %d; want %d", keep, got, want)
		}
		s.Release()
	}
}
