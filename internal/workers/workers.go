// Package workers says how many goroutines search, parse and evaluate files
// side by side: one per core the process may use.
//
// That is GOMAXPROCS as the runtime first sets it (the CPU count, or a
// container's CPU limit), not as it is later: the structls command runs
// with one P more than it has workers (cmd/structls), because a worker
// spends most of its time in a tree-sitter parse, a call into C, and on
// its return needs a P again; with one P per worker it could find both
// held by the goroutines that deliver and encode results, and its core sat
// idle meanwhile (X-Ray and outline over the Go standard library: about 3%
// more wall time).
package workers

import (
	"os"
	"runtime"
	"sync/atomic"
)

var count atomic.Int64

func init() { count.Store(int64(runtime.GOMAXPROCS(0))) }

// Count is the number of workers a pool of file workers starts.
func Count() int { return int(count.Load()) }

// SetCount sets Count and returns its previous value: for tests that need
// a number of workers whatever the machine.
func SetCount(n int) int { return int(count.Swap(int64(max(n, 1)))) }

// AddDeliveryP gives the process one P more than it has workers (see the
// package comment), unless the user set GOMAXPROCS: for the structls
// command, and for benchmarks that run its server in-process and must run
// it as the command does.
//
// It stays a process setting, unlike the parse budget (an option of each
// server: syntax.WithParseBudget): the Ps are the runtime's, shared by
// every goroutine of the process, so GOMAXPROCS is one number per process
// by nature, and the main function that owns the process sets it.
func AddDeliveryP() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(Count() + 1)
	}
}
