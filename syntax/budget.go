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
// (ParseOptions.Budget), so each server in a process (the MCP server keeps one
// per workspace) and each command sets its own, and a parse whose context
// carries none has the default.
var parsingBytes = newByteBudget(DefaultParseBudget)

// DefaultParseBudget is the parse budget of a context that carries none.
const DefaultParseBudget = 8 << 20

// ParseOptions are how the parses of one server (or one command's server)
// use memory, carried by the context all its work derives from
// (WithParseOptions), so that two servers in a process (the MCP server keeps
// one per workspace) each have their own. The zero ParseOptions are the
// defaults: a long-lived server's.
type ParseOptions struct {
	// Budget is how many source bytes may parse at once in the process
	// under these options (see parsingBytes): a parse starts only while the
	// bytes in flight, its own included, stay within it; a file larger
	// than it parses alone. <= 0: the process default (DefaultParseBudget).
	// A one-shot command that must stay small (structls astgrep, whose peak
	// RSS is held under ast-grep's) trades some speed for a lower one.
	Budget int64
	// ArenaKeep is how much of its arena a scratch keeps from one file to
	// the next (see DefaultArenaKeep); <= 0: the process default. A command
	// whose peak memory matters more than its page faults keeps less. The
	// package's pooled scratches keep pooledArenaKeep whatever it says.
	ArenaKeep int64
	// FreeHeapBeforeLoneParses makes every parse of a file larger than the
	// budget, which runs alone and sets the process's peak, first return
	// the Go heap's free memory to the kernel: for a one-shot command whose
	// peak matters, with a small heap. Off by default: a server holding a
	// large parse cache would pay a full collection for each such file, and
	// its peak is the cache's anyway.
	FreeHeapBeforeLoneParses bool
}

// parseOptionsKey is the context key of WithParseOptions's options.
type parseOptionsKey struct{}

// WithParseOptions returns ctx carrying o for the parses made under it.
func WithParseOptions(ctx context.Context, o ParseOptions) context.Context {
	return context.WithValue(ctx, parseOptionsKey{}, o)
}

// ParseOptionsOf returns the options of ctx's parses (WithParseOptions),
// the process defaults filled in where they leave a field zero.
func ParseOptionsOf(ctx context.Context) ParseOptions {
	o, _ := ctx.Value(parseOptionsKey{}).(ParseOptions)
	if o.Budget <= 0 {
		parsingBytes.mu.Lock()
		o.Budget = parsingBytes.limit
		parsingBytes.mu.Unlock()
	}
	if o.ArenaKeep <= 0 {
		o.ArenaKeep = arenaKeep.Load()
	}
	return o
}

// SetParseBudget sets the parse budget of contexts that carry none
// (DefaultParseBudget until changed): for tests. A command or a server
// gives its parses their budget with WithParseOptions.
func SetParseBudget(bytes int64) {
	parsingBytes.mu.Lock()
	parsingBytes.limit = max(bytes, 1)
	parsingBytes.wakeLocked()
	parsingBytes.mu.Unlock()
}

// DefaultArenaKeep is what a scratch keeps of its arena from one file to
// the next unless its ParseOptions (or, for tests, SetArenaKeep) say
// otherwise: files up to about 1 MB (tree-sitter takes some 60 bytes a
// byte) then parse on pages already touched. A goroutine that parses file after file — a search's worker —
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

// arenaKeep is the process default of ParseOptions.ArenaKeep (SetArenaKeep).
var arenaKeep atomic.Int64

func init() { arenaKeep.Store(DefaultArenaKeep) }

// SetArenaKeep sets the process default of ParseOptions.ArenaKeep, for
// tests: how much of its arena a scratch that has not parsed yet will keep
// after each file for the next one; a larger file's arena goes back to the
// kernel, and the next one as large faults in fresh pages. A command or a
// server sets its own with WithParseOptions.
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
// first. The limit is ctx's (ParseOptions.Budget), else b's own. When it
// has to wait, it calls beforeWait first (if not nil).
func (b *byteBudget) acquire(ctx context.Context, n int64, beforeWait func()) (int64, error) {
	own, _ := ctx.Value(parseOptionsKey{}).(ParseOptions)
	b.mu.Lock()
	limit := b.limit
	if own.Budget > 0 {
		limit = own.Budget
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
