package syntax

// #include "syntax.h"
import "C"

import (
	"context"
	"sync"
	"sync/atomic"
)

// parsingBytes limits the source bytes parsed at once in the process.
// Tree-sitter takes about 40 bytes of memory for each byte it parses, so
// the peak memory of a search is that of the parses running together: two
// workers each parsing a 2 MB file need 160 MB, one after the other 80.
// The default, 8 MiB, is twice the largest file searched by default
// (workspace.DefaultMaxFileSize): any two files parse side by side, so on
// two cores no worker waits for it, and on more it still bounds the parses
// in flight (to ~320 MB). At 4 MiB a worker sat idle behind each pair of
// large files (the Go standard library's opGen.go and rewriteAMD64.go, 3
// and 1.9 MB: ~0.1 s of a core idle in every run of a fresh server's first
// query), and the server's peak with the whole library cached was no lower
// (bench/warm: 1,356-1,398 MB at 4 MiB, 1,332-1,376 at 8). A smaller limit
// makes every worker wait behind each large file: 7% more wall time over
// the Go standard library at 1 MiB.
//
// One count of the bytes in flight serves the whole process, since memory
// is the process's; the limit a parse waits for is its context's
// (WithParseBudget), so each server in a process (the MCP server keeps one
// per workspace) and each command sets its own, and a parse whose context
// carries none has the default.
var parsingBytes = newByteBudget(DefaultParseBudget)

// DefaultParseBudget is the parse budget of a context that carries none.
const DefaultParseBudget = 8 << 20

// parseBudgetKey is the context key of WithParseBudget's limit.
type parseBudgetKey struct{}

// WithParseBudget returns ctx with a parse budget: a parse under it starts
// only while the source bytes parsing in the process, its own included,
// stay within bytes (a file larger than that parses alone). A one-shot
// command that must stay small (structls astgrep, whose peak RSS is held
// under ast-grep's) trades some speed for a lower limit; a server sets its
// own on the context all its work derives from. bytes <= 0 leaves ctx as
// it is.
func WithParseBudget(ctx context.Context, bytes int64) context.Context {
	if bytes <= 0 {
		return ctx
	}
	return context.WithValue(ctx, parseBudgetKey{}, bytes)
}

// ParseBudgetOf returns the parse budget of ctx's parses (WithParseBudget):
// its own, or the process default.
func ParseBudgetOf(ctx context.Context) int64 {
	if limit, ok := ctx.Value(parseBudgetKey{}).(int64); ok {
		return limit
	}
	parsingBytes.mu.Lock()
	defer parsingBytes.mu.Unlock()
	return parsingBytes.limit
}

// SetParseBudget sets the parse budget of contexts that carry none
// (DefaultParseBudget until changed): for tests. A command or a server
// gives its parses their budget with WithParseBudget.
func SetParseBudget(bytes int64) {
	parsingBytes.mu.Lock()
	parsingBytes.limit = max(bytes, 1)
	parsingBytes.wakeLocked()
	parsingBytes.mu.Unlock()
}

// DefaultArenaKeep is what a scratch keeps of its arena from one file to
// the next unless SetArenaKeep says otherwise: files up to about 1 MB
// (tree-sitter takes some 60 bytes a byte) then parse on pages already
// touched. A goroutine that parses file after file — a search's worker —
// gives that much back only when its run ends (Scratch.Release): at 4 MiB,
// every file over ~70 KB faulted in fresh pages, a tenth of a cold
// outline's CPU time over the Go standard library.
const DefaultArenaKeep = 64 << 20

// pooledArenaKeep is what the scratches of the package's pool keep (Parse,
// and through it the parse cache and background parsing): a long-lived
// server holds them for as long as it runs, and with 64 MiB each its peak
// with the whole Go standard library cached rose over 1.5 GiB
// (1,602,644 kB; 1,379,080 kB at 4 MiB).
const pooledArenaKeep = 4 << 20

// arenaKeep is what a scratch keeps from its first parse on (SetArenaKeep).
var arenaKeep atomic.Int64

func init() { arenaKeep.Store(DefaultArenaKeep) }

// SetArenaKeep sets how much of its arena a scratch that has not parsed
// yet will keep after each file for the next one; a larger file's arena
// goes back to the kernel, and the next one as large faults in fresh
// pages. A command whose peak memory matters more than its page faults
// keeps less. The package's pooled scratches keep 4 MiB whatever this
// says.
func SetArenaKeep(bytes int64) { arenaKeep.Store(max(bytes, 0)) }

// ArenaBytes reports the memory all the arenas of the process hold now,
// parsing or kept for the next file: for tests and diagnostics.
func ArenaBytes() int64 { return int64(C.structls_arena_bytes()) }

// byteBudget is a weighted semaphore over bytes. A request waits while
// earlier ones wait, so a large one is not starved by a stream of small
// ones.
type byteBudget struct {
	mu       sync.Mutex
	limit    int64
	used     int64
	waiting  int
	released chan struct{} // closed (and replaced) at every release
}

func newByteBudget(limit int64) *byteBudget {
	return &byteBudget{limit: limit, released: make(chan struct{})}
}

// acquire takes n bytes of the budget (the whole limit when n exceeds it)
// and returns what was taken, for release; or ErrCancelled when ctx ends
// first. The limit is ctx's (WithParseBudget), else b's own. When it has
// to wait, it calls beforeWait first (if not nil).
func (b *byteBudget) acquire(ctx context.Context, n int64, beforeWait func()) (int64, error) {
	own, hasOwn := ctx.Value(parseBudgetKey{}).(int64)
	b.mu.Lock()
	limit := b.limit
	if hasOwn {
		limit = own
	}
	n = min(n, limit)
	queued := false
	for b.used+n > limit || (!queued && b.waiting > 0) {
		if !queued {
			b.waiting++
			queued = true
			if beforeWait != nil {
				b.mu.Unlock()
				beforeWait()
				b.mu.Lock()
				continue // the budget may have been released meanwhile
			}
		}
		wait := b.released
		b.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			b.mu.Lock()
			b.waiting--
			b.wakeLocked()
			b.mu.Unlock()
			return 0, ErrCancelled
		}
		b.mu.Lock()
	}
	if queued {
		b.waiting--
	}
	b.used += n
	b.mu.Unlock()
	return n, nil
}

// release returns n bytes taken by acquire.
func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.wakeLocked()
	b.mu.Unlock()
}

// wakeLocked lets every waiter look again. Precondition: b.mu is held.
func (b *byteBudget) wakeLocked() {
	close(b.released)
	b.released = make(chan struct{})
}
