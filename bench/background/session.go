package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
)

// session starts a fresh server on root and sends the patterns back to
// back right after initialize, passes times over, as an agent's session
// does: with background parsing on (mode "session") the queries run while
// the server is still indexing; with it off ("session-off") the first
// query parses for the rest. It prints, per query, the pass, the pattern,
// its matches, wall and CPU seconds, and how far indexing had got when the
// query returned ("done", or the percentage last reported); then the
// process's peak RSS.
func session(mode, root, language string, passes int, patterns []string) error {
	ctx := context.Background()
	opts := client.EditorOptions{WorkDoneProgress: true}
	if mode == "session-off" {
		opts.InitOptions = json.RawMessage(`{"structls": {"backgroundParse": false}}`)
	}
	ed, wait := lsp.StartInProcess(ctx, lsp.Options{}, opts)
	if _, err := ed.Initialize(ctx, root); err != nil {
		return err
	}
	for pass := 1; pass <= passes; pass++ {
		for _, p := range patterns {
			start, startCPU := time.Now(), cpuTime()
			raw, err := ed.ExecuteCommand(ctx, lsp.CommandAstGrep, map[string]any{"pattern": p, "lang": language, "limit": 0})
			if err != nil {
				return err
			}
			wall, cpu := time.Since(start), cpuTime()-startCPU
			var res struct{ MatchCount int }
			_ = json.Unmarshal(raw, &res)
			fmt.Printf("pass %d\t%s\t%d\t%.3f\t%.3f\t%s\n", pass, p, res.MatchCount, wall.Seconds(), cpu.Seconds(), indexingState(ed))
		}
	}
	_ = ed.Shutdown(ctx)
	wait()
	fmt.Printf("peak-rss\t%s\n", peakRSS())
	return nil
}

// indexingState says how far the "Indexing N files" progress has got:
// "done" once it has ended, else the percentage it last reported ("0%"
// before its first report).
func indexingState(ed *client.Editor) string {
	begun := map[string]bool{}
	state := "0%"
	for _, ev := range ed.Progress() {
		switch {
		case ev.Kind == "begin" && lsp.IsWarmupTitle(ev.Title):
			begun[ev.Token] = true
		case ev.Kind == "report" && begun[ev.Token] && ev.Percentage != nil:
			state = fmt.Sprintf("%d%%", *ev.Percentage)
		case ev.Kind == "end" && begun[ev.Token]:
			state = "done"
		}
	}
	return state
}

// peakRSS returns the process's peak resident set size (VmHWM).
func peakRSS() string {
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}
