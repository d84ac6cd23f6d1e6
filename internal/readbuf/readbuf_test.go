package readbuf

import (
	"runtime"
	"sync"
	"testing"
	"unsafe"
)

// TestLendAndReturn: a lent buffer is empty, Size long, on a huge-page
// boundary (Linux), writable to its end, and comes back from Get once Put;
// buffers that Get did not lend are not taken.
func TestLendAndReturn(t *testing.T) {
	b := Get()
	if b == nil {
		if runtime.GOOS == "linux" {
			t.Fatal("Get lent nothing on Linux")
		}
		t.Skip("no lent buffers on " + runtime.GOOS)
	}
	if len(b) != 0 || cap(b) != Size {
		t.Fatalf("lent len %d cap %d, want 0 and %d", len(b), cap(b), Size)
	}
	if start := uintptr(unsafe.Pointer(&b[:1][0])); start%hugePage != 0 {
		t.Errorf("buffer at %#x, not on a %d-byte boundary", start, hugePage)
	}
	full := b[:Size]
	full[0], full[Size-1] = 1, 2 // both ends are mapped
	Put(b)
	if again := Get(); &again[:1][0] != &b[:1][0] {
		t.Error("Get did not lend the buffer given back")
	} else {
		Put(again)
	}
	own := make([]byte, 0, Size)
	Put(own)
	Put(nil)
	Put(b[: 0 : Size-1])
	for range 2 {
		if got := Get(); cap(got) == Size && &got[:1][0] == &own[:1][0] {
			t.Fatal("Put took a buffer Get never lent")
		} else {
			defer Put(got)
		}
	}
}

// TestConcurrentUse: workers borrowing and returning at once never share a
// buffer (run with -race).
func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	inUse := map[*byte]bool{}
	for range 8 {
		wg.Go(func() {
			for range 50 {
				b := Get()
				if b == nil {
					return
				}
				p := &b[:1][0]
				mu.Lock()
				if inUse[p] {
					t.Error("one buffer lent twice at once")
				}
				inUse[p] = true
				mu.Unlock()
				b = append(b, "x"...)
				mu.Lock()
				delete(inUse, p)
				mu.Unlock()
				Put(b)
			}
		})
	}
	wg.Wait()
}

// TestBounded: no more than maxLent buffers are ever mapped; a worker
// beyond them gets nil and reads into memory of its own.
func TestBounded(t *testing.T) {
	var held [][]byte
	for range maxLent + 3 {
		if b := Get(); b != nil {
			held = append(held, b)
		}
	}
	if runtime.GOOS == "linux" && len(held) != maxLent {
		t.Errorf("lent %d buffers at once, want at most and (on Linux) exactly %d", len(held), maxLent)
	}
	for _, b := range held {
		Put(b)
	}
	if b := Get(); runtime.GOOS == "linux" && b == nil {
		t.Error("a buffer given back was not lent again")
	} else {
		Put(b)
	}
}
