// Command warm measures structural queries through one long-lived server,
// as an editor session runs them: the first query parses the workspace, the
// following ones (other patterns) find the trees in the parse cache. The
// server's background parsing is off, so the first query fills the cache
// itself and nothing else runs while the warm queries are timed. It
// prints one line per query: pattern, matches, wall seconds, CPU seconds
// (user and system, of the whole process: server and client); then the
// process's peak RSS. bench/astgrep.sh and bench/memory.sh run it.
//
// usage: go run ./bench/warm ROOT LANG PATTERN...
//
// With WARM_CPUPROFILE=FILE set it writes a CPU profile of the warm
// queries (all but the first) to FILE; with WARM_LIMIT=N the queries ask
// for N matches (default 0, all).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
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
		start, startCPU := time.Now(), cpuTime()
		raw, err := ed.ExecuteCommand(ctx, lsp.CommandAstGrep, map[string]any{"pattern": p, "lang": language, "limit": limit})
		elapsed := time.Since(start) // until the reply is in; decoding it is the client's business
		cpu := cpuTime() - startCPU
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
		fmt.Printf("%s\t%s\t%d\t%.3f\t%.3f\n", kind, p, res.MatchCount, elapsed.Seconds(), cpu.Seconds())
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

// cpuTime returns the CPU time the process has used so far. On a loaded
// machine it says what a query costs where wall time says how long it
// waited for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
