// Command agents runs an agent's session of structural queries through
// `structls mcp` as an MCP client would: it starts the server over stdio,
// calls the ast_grep tool once per pattern, back to back, and prints one
// line per call (pattern, wall seconds, the reply's bytes), then the whole
// session's seconds, the server's peak RSS and its CPU time. bench/agents.sh runs it.
//
// usage: go run ./bench/agents STRUCTLS ROOT PATTERN...
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: agents STRUCTLS ROOT PATTERN...")
		os.Exit(2)
	}
	structls, root, patterns := os.Args[1], os.Args[2], os.Args[3:]
	ctx := context.Background()
	start := time.Now()
	cmd := exec.Command(structls, "mcp", "--root", root)
	client := sdk.NewClient(&sdk.Implementation{Name: "bench-agents", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "connecting to structls mcp:", err)
		os.Exit(1)
	}
	for _, p := range patterns {
		t := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ast_grep", Arguments: map[string]any{"pat": p, "lang": "go"}})
		if err != nil {
			fmt.Fprintf(os.Stderr, "ast_grep %q: %v\n", p, err)
			os.Exit(1)
		}
		size := 0
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				size += len(tc.Text)
			}
		}
		fmt.Printf("call\t%s\t%.3f\t%d\n", p, time.Since(t).Seconds(), size)
	}
	total := time.Since(start).Seconds()
	fmt.Printf("session\t%.3f\n", total)
	fmt.Printf("peakrss_mb\t%d\n", peakRSS(cmd.Process.Pid)/1024)
	fmt.Printf("server_cpu\t%.2f\n", cpuSeconds(cmd.Process.Pid))
	cs.Close()
}

// cpuSeconds reads the CPU time (user and system) a live process has used,
// from /proc/PID/stat: on a machine loaded by other work it says what the
// session cost, where wall time says how long it waited for a core.
func cpuSeconds(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name (which may hold spaces), from the
	// third on: utime and stime are the 14th and 15th.
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(fields) < 13 {
		return 0
	}
	var utime, stime float64
	fmt.Sscan(fields[11], &utime)
	fmt.Sscan(fields[12], &stime)
	return (utime + stime) / 100 // clock ticks: 100 a second on Linux
}

// peakRSS reads a live process's peak resident set (VmHWM, in kB).
func peakRSS(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb int
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb
		}
	}
	return 0
}
