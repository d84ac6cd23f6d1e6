// Command agents runs an agent's session of structural queries through
// `structls mcp` as an MCP client would: it starts the server over stdio,
// calls the ast_grep tool once per pattern, back to back, and prints one
// line per call (pattern, wall seconds, the reply's bytes), then the whole
// session's seconds and the server's peak RSS. bench/agents.sh runs it.
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
	cs.Close()
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
