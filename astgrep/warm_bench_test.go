package astgrep

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// cpuTime is the CPU time (user and system) the process has used: on a
// machine loaded by other work it says what a query costs, where wall time
// says how long it waited for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// agentPatterns are bench/agents.sh's ten patterns: an agent's session.
var agentPatterns = []string{
	"if err != nil { return $$$ }",
	"$A := make($T, $N)",
	"for $K, $V := range $X { $$$ }",
	"defer $F.Close()",
	"func ($R *$T) String() string { $$$ }",
	"go func() { $$$ }()",
	"switch $X := $Y.(type) { $$$C }",
	"errors.New($MSG)",
	"fmt.Errorf($$$A)",
	"$M.Lock()",
}

// BenchmarkWarmSearch is a warm server's query as an agent sends it (the
// first page of 50) and as the CLI's --json asks it (every match) over
// GOROOT/src/net, every tree cached and every stamp
// trusted before the timer: the walk, the stats, the literal test and the
// matching, without the noise of parsing. Compare runs A/B to see what a
// change to the warm path costs; cpu-ms/op is the steadier figure on a
// loaded machine.
func BenchmarkWarmSearch(b *testing.B) {
	folder, err := workspace.NewFolder(filepath.Join(runtime.GOROOT(), "src", "net"), "")
	if err != nil {
		b.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	files := parsecache.NewFileTrees()
	files.Now = func() time.Time { return time.Now().Add(time.Hour) }
	trees := parsecache.Trees{Cache: syntax.NewCache(2 << 30), Files: files}
	ctx := context.Background()
	if _, err := Search(ctx, engine.Env{Snapshot: snap, Encoding: workspace.UTF16, Trees: trees}, Query{Pattern: "$F($$$A)", Lang: "go"}); err != nil {
		b.Fatal(err) // parses every file into the cache
	}
	for _, limit := range []int{DefaultLimit, 0} {
		for _, p := range agentPatterns {
			b.Run(fmt.Sprintf("limit=%d/%s", limit, p), func(b *testing.B) {
				benchmarkQuery(b, snap, Query{Pattern: p, Lang: "go", Limit: &limit}, trees)
			})
		}
	}
}

// benchmarkQuery times q, warm, reporting its matches and CPU time.
func benchmarkQuery(b *testing.B, snap *workspace.Snapshot, q Query, trees parsecache.Trees) {
	ctx := context.Background()
	cpu := cpuTime()
	for b.Loop() {
		res, err := Search(ctx, engine.Env{Snapshot: snap, Encoding: workspace.UTF16, Trees: trees}, q)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.MatchCount), "matches")
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
