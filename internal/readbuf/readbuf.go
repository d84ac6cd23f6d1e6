// Package readbuf lends the buffers a search reads files into.
//
// A search reads every file whole into its worker's buffer, reused file
// after file; the buffer grows to the largest file the worker meets. Each
// fresh 4 KiB page of it is a page fault when read(2) first fills it, and
// where a fault is dear (a virtual machine: ~20 us on the 2-core test
// machine) a search of the Go standard library spent 1,500 of its 3,000
// faults there, growing buffers to 3 MB, against 960 for the whole of
// ripgrep's run, which reads through a small window. A lent buffer is
// mapped from the kernel with transparent huge pages asked for
// (MADV_HUGEPAGE), on a 2 MiB boundary, so filling it costs a fault per
// 2 MiB; it is never unmapped: returned buffers wait for the next worker.
// A file larger than the buffer is read into memory of its own as before.
//
// At most maxLent buffers exist, so what the process keeps is bounded by
// the machine's size, not by how many searches a server once ran at once:
// a worker of a search beyond them (the server runs several commands at
// once) reads into memory of its own, as does every reader where mapping
// is unsupported or fails (Get returns a nil buffer).
package readbuf

import (
	"sync"

	"github.com/structls/structls/internal/workers"
)

// Size is the capacity of a lent buffer.
const Size = 4 << 20

// hugePage is the boundary a lent buffer starts on.
const hugePage = 2 << 20

// maxLent bounds the buffers mapped: two searches' workers.
var maxLent = 2 * workers.Count()

var (
	mu     sync.Mutex
	free   [][]byte // returned buffers
	mapped int      // buffers mapped so far
)

// Get lends a buffer of length 0 and capacity Size, or returns nil when
// maxLent are lent or none can be mapped. Give it back with Put once
// nothing refers to its bytes.
func Get() []byte {
	mu.Lock()
	defer mu.Unlock()
	if n := len(free); n > 0 {
		b := free[n-1]
		free = free[:n-1]
		return b
	}
	if mapped == maxLent {
		return nil
	}
	b := mapBuffer()
	if b != nil {
		mapped++
	}
	return b
}

// Put takes back a buffer Get lent; other buffers (nil, or one a reader
// grew into its own memory) are left to the collector.
func Put(b []byte) {
	if !lent(b) {
		return
	}
	mu.Lock()
	free = append(free, b[:0:Size])
	mu.Unlock()
}
