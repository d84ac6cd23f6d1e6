// Command background measures background parsing and incremental reparsing
// through the in-process server (issue 14 items 1 and 4); bench/background.sh
// runs it and prints the ratios against ast-grep.
//
//	background first ROOT LANG PATTERN   a fresh server's first query, sent at once
//	                                     after initialize (background parsing on)
//	background off ROOT LANG PATTERN     the same with backgroundParse off
//	background indexed ROOT LANG PATTERN a fresh server's query sent once its
//	                                     "Indexing N files" progress has ended
//	background keystroke N               N times: one character typed into an
//	                                     open 10,000-line Go file, then
//	                                     structls.astGrep on that file; and, for
//	                                     comparison, one character written into
//	                                     the closed file on disk, then the same
//	                                     query (a full parse each time)
//	background session ROOT LANG PASSES PATTERN...
//	                                     a fresh server's session: the patterns
//	                                     back to back from initialize on, PASSES
//	                                     times, while it indexes (session.go)
//	background session-off ROOT LANG PASSES PATTERN...
//	                                     the same with backgroundParse off
//
// With BACKGROUND_CPUPROFILE=FILE, the first three modes write a CPU
// profile of the query to FILE.
//
// Each mode prints tab-separated lines: a label and seconds (and matches);
// a query's line ends with the CPU time the whole process (server, client,
// and any background work) used while it ran, which says what the query
// cost on a machine loaded by other work, where its wall time does not.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/structls/structls/internal/workers"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

func main() {
	workers.AddDeliveryP() // as the structls command runs its server
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch mode := os.Args[1]; {
	case mode == "keystroke" && len(os.Args) == 3:
		var n int
		if _, err = fmt.Sscan(os.Args[2], &n); err == nil {
			err = keystrokes(n)
		}
	case (mode == "session" || mode == "session-off") && len(os.Args) >= 6:
		var passes int
		if _, err = fmt.Sscan(os.Args[4], &passes); err == nil {
			err = session(mode, os.Args[2], os.Args[3], passes, os.Args[5:])
		}
	case len(os.Args) == 5 && (mode == "first" || mode == "off" || mode == "indexed"):
		err = query(mode, os.Args[2], os.Args[3], os.Args[4])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "background:", err)
		os.Exit(2)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: background first|off|indexed ROOT LANG PATTERN | background keystroke N | background session|session-off ROOT LANG PASSES PATTERN...")
	os.Exit(2)
}

// query starts a fresh server on root and times one structls.astGrep.
func query(mode, root, language, pattern string) error {
	ctx := context.Background()
	opts := client.EditorOptions{WorkDoneProgress: true}
	if mode == "off" {
		opts.InitOptions = json.RawMessage(`{"structls": {"backgroundParse": false}}`)
	}
	ed, wait := lsp.StartInProcess(ctx, lsp.Options{}, opts)
	defer wait()
	defer ed.Shutdown(ctx)
	start := time.Now()
	if _, err := ed.Initialize(ctx, root); err != nil {
		return err
	}
	if mode == "indexed" {
		if err := waitIndexed(ed); err != nil {
			return err
		}
		fmt.Printf("indexing\t%.3f\n", time.Since(start).Seconds())
	}
	stop, err := startProfile(os.Getenv("BACKGROUND_CPUPROFILE"))
	if err != nil {
		return err
	}
	start, startCPU := time.Now(), cpuTime()
	raw, err := ed.ExecuteCommand(ctx, lsp.CommandAstGrep, map[string]any{"pattern": pattern, "lang": language, "limit": 0})
	if err != nil {
		return err
	}
	wall, cpu := time.Since(start), cpuTime()-startCPU
	stop()
	var res struct{ MatchCount int }
	_ = json.Unmarshal(raw, &res)
	fmt.Printf("%s\t%.3f\t%d\t%.3f\n", mode, wall.Seconds(), res.MatchCount, cpu.Seconds())
	return nil
}

// waitIndexed waits for the end of the "Indexing N files" progress.
func waitIndexed(ed *client.Editor) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	msg, err := ed.WaitProgressEnd(ctx, lsp.IsWarmupTitle)
	if err == nil && !strings.Contains(msg, "parsed") {
		err = fmt.Errorf("indexing ended with %q", msg)
	}
	return err
}

// bigGoFile is a 10,000-line Go file of small functions.
func bigGoFile() string {
	var b strings.Builder
	b.WriteString("package big\n\n")
	for i := 0; strings.Count(b.String(), "\n") < 10000; i++ {
		fmt.Fprintf(&b, "func f%d(a []int) (int, error) {\n\tx, err := g(a[%d:])\n\tif err != nil {\n\t\treturn 0, err\n\t}\n\treturn x + %d, nil\n}\n\n", i, i%7, i)
	}
	return b.String()
}

// keystrokes times n keystrokes in an open 10,000-line file, each followed
// by structls.astGrep on the file, then n disk edits of the closed file.
func keystrokes(n int) error {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "structls-keystroke")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "big.go")
	text := bigGoFile()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return err
	}
	ed, wait := lsp.StartInProcess(ctx, lsp.Options{}, client.EditorOptions{})
	defer wait()
	defer ed.Shutdown(ctx)
	if _, err := ed.Initialize(ctx, dir); err != nil {
		return err
	}
	q := map[string]any{"pattern": "if err != nil { return $$$ }", "lang": "go", "limit": 0, "paths": []string{"big.go"}}
	uri, err := ed.OpenFile(ctx, path, "go", text)
	if err != nil {
		return err
	}
	if _, err := ed.ExecuteCommand(ctx, lsp.CommandAstGrep, q); err != nil { // the first parse
		return err
	}
	// Each keystroke types one more "x" into a function's name on line 5002
	// ("func f625(" becomes "func fx625(", then "func fxx625(", …): the text
	// stays free of syntax errors, and no version is one the cache has seen.
	at := workspace.Position{Line: 5002, Character: 6}
	var typed []time.Duration
	cpuBefore := cpuTime()
	for range n {
		start := time.Now()
		if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: at, End: at}, Text: "x"}); err != nil {
			return err
		}
		if _, err := ed.ExecuteCommand(ctx, lsp.CommandAstGrep, q); err != nil {
			return err
		}
		typed = append(typed, time.Since(start))
	}
	typedCPU := (cpuTime() - cpuBefore) / time.Duration(n)
	if err := ed.CloseFile(ctx, uri); err != nil {
		return err
	}
	var disk []time.Duration
	cpuBefore = cpuTime()
	lines := strings.SplitAfter(text, "\n")
	for range n {
		lines[5002] = lines[5002][:6] + "y" + lines[5002][6:]
		if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
			return err
		}
		start := time.Now()
		if _, err := ed.ExecuteCommand(ctx, lsp.CommandAstGrep, q); err != nil {
			return err
		}
		disk = append(disk, time.Since(start))
	}
	diskCPU := (cpuTime() - cpuBefore) / time.Duration(n)
	fmt.Printf("keystroke\t%.1f\t%.1f\t%.1f\n", ms(percentile(typed, 50)), ms(percentile(typed, 95)), ms(typedCPU))
	fmt.Printf("disk\t%.1f\t%.1f\t%.1f\n", ms(percentile(disk, 50)), ms(percentile(disk, 95)), ms(diskCPU))
	return nil
}

// startProfile starts a CPU profile into path (nothing when path is
// empty) and returns the function that stops it.
func startProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func ms(d time.Duration) float64 { return d.Seconds() * 1000 }

// percentile returns the p-th percentile (nearest rank) of ds.
func percentile(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s)+99)/100 - 1
	return s[max(i, 0)]
}

// cpuTime returns the CPU time (user and system) the process has used: on a
// machine shared with other work it varies less than wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
