// Command warm measures structural queries through one long-lived server,
// as an editor session runs them: the first query parses the workspace, the
// following ones (other patterns) find the trees in the parse cache. The
// server's background parsing is off, so the first query fills the cache
// itself and nothing else runs while the warm queries are timed. It
// prints one line per query: pattern, matches, wall seconds, CPU seconds
// (user and system, of the whole process: server and client), MB the
// process allocated and page faults it took during the query (on a machine
// where a fresh page costs tens of microseconds these say why a query is
// slower the first time); then the process's peak RSS. bench/astgrep.sh and bench/memory.sh run it.
//
// usage: go run ./bench/warm ROOT LANG PATTERN...
//
// With WARM_CPUPROFILE=FILE set it writes a CPU profile of the warm
// queries (all but the first) to FILE; with WARM_LIMIT=N the queries ask
// for N matches (default 0, all); with WARM_ALLOCPROFILE=FILE it writes
// the allocations of the warm queries to FILE, and those of the first to
// FILE.base (compare them with go tool pprof -sample_index=alloc_space
// -base FILE.base FILE).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/structls/structls/internal/workers"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
)

func main() {
	workers.AddDeliveryP() // as the structls command runs its server
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: warm ROOT LANG PATTERN...")
		os.Exit(2)
	}
	root, language, patterns := os.Args[1], os.Args[2], os.Args[3:]
	limit := 0
	if v := os.Getenv("WARM_LIMIT"); v != "" {
		limit, _ = strconv.Atoi(v)
	}
	ctx := context.Background()
	ed, wait := lsp.StartInProcess(ctx, lsp.Options{}, client.EditorOptions{
		InitOptions: json.RawMessage(`{"structls": {"backgroundParse": false}}`)})
	if _, err := ed.Initialize(ctx, root); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for i, p := range patterns {
		if i == 1 {
			stop := startProfile(os.Getenv("WARM_CPUPROFILE"))
			defer stop()
		}
		startAlloc, startFaults := allocated(), pageFaults() // before the clock starts: ReadMemStats stops the world
		start, startCPU := time.Now(), cpuTime()
		raw, err := ed.ExecuteCommand(ctx, lsp.CommandAstGrep, map[string]any{"pattern": p, "lang": language, "limit": limit})
		elapsed := time.Since(start) // until the reply is in; decoding it is the client's business
		cpu := cpuTime() - startCPU
		alloc, faults := allocated()-startAlloc, pageFaults()-startFaults
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		var res struct{ MatchCount int }
		_ = json.Unmarshal(raw, &res)
		kind := "warm"
		if i == 0 {
			kind = "cold"
		}
		if i == 0 || i == len(patterns)-1 {
			writeAllocs(os.Getenv("WARM_ALLOCPROFILE"), i == 0)
		}
		fmt.Printf("%s\t%s\t%d\t%.3f\t%.3f\t%.1f\t%d\n", kind, p, res.MatchCount, elapsed.Seconds(), cpu.Seconds(), float64(alloc)/(1<<20), faults)
	}
	_ = ed.Shutdown(ctx)
	wait()
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			fmt.Printf("peak-rss\t%s\n", strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:")))
		}
	}
}

// startProfile starts a CPU profile into path (nothing when path is empty)
// and returns the function that stops it.
func startProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}

// writeAllocs writes the allocation profile so far to path, or to
// path.base when base is set (nothing when path is empty).
func writeAllocs(path string, base bool) {
	if path == "" {
		return
	}
	if base {
		path += ".base"
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer f.Close()
	runtime.GC() // the profile counts allocations up to the last collection
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

// cpuTime returns the CPU time the process has used so far. On a loaded
// machine it says what a query costs where wall time says how long it
// waited for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pageFaults returns the minor page faults the process has taken so far.
func pageFaults() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Minflt
}

// allocated returns the bytes the Go heap has allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}
