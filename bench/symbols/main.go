// Command symbols measures workspace/symbol and textDocument/documentSymbol
// through one long-lived in-process server, as an editor session asks them:
// the first workspace/symbol query indexes the workspace (cold), the
// following ones (other queries) only check the open documents (warm: the
// editor watches the files, so the index trusts its last walk); then a
// generated file of LINES lines is opened and its document symbols asked
// for ROUNDS times (the first parses it, the others find the tree in the
// parse cache), right away, while the server may still be indexing the
// workspace in the background, and again once its "Indexing N files"
// progress has ended. It prints one line per measure. bench/outline.sh
// runs it.
//
// usage: go run ./bench/symbols ROOT LINES ROUNDS QUERY...
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/structls/structls/internal/workers"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
)

func main() {
	workers.AddDeliveryP() // as the structls command runs its server
	if len(os.Args) < 5 {
		fmt.Fprintln(os.Stderr, "usage: symbols ROOT LINES ROUNDS QUERY...")
		os.Exit(2)
	}
	root := os.Args[1]
	lines, _ := strconv.Atoi(os.Args[2])
	rounds, _ := strconv.Atoi(os.Args[3])
	queries := os.Args[4:]
	ctx := context.Background()
	// An editor that watches files for the server, as VS Code does: warm
	// queries then trust the index until a watched file changes.
	ed, wait := lsp.StartInProcess(ctx, lsp.Options{}, client.EditorOptions{DynamicWatch: true, WorkDoneProgress: true})
	if _, err := ed.Initialize(ctx, root); err != nil {
		fail(err)
	}
	for deadline := time.Now().Add(10 * time.Second); len(ed.Registrations()) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	var warm []float64
	for i, q := range queries {
		start := time.Now()
		var syms []struct{ Name string }
		if err := ed.Call(ctx, "workspace/symbol", map[string]any{"query": q}, &syms); err != nil {
			fail(err)
		}
		ms := float64(time.Since(start).Microseconds()) / 1000
		if i == 0 {
			fmt.Printf("workspace/symbol cold %q: %d symbols, %.1f ms\n", q, len(syms), ms)
		} else {
			warm = append(warm, ms)
		}
	}
	fmt.Printf("workspace/symbol warm: %d queries, p50 %.1f ms, p95 %.1f ms, max %.1f ms\n",
		len(warm), percentile(warm, 50), percentile(warm, 95), percentile(warm, 100))

	path := filepath.Join(os.TempDir(), fmt.Sprintf("structls-bench-%d.go", os.Getpid()))
	defer os.Remove(path)
	uri, err := ed.OpenFile(ctx, path, "go", generated(lines))
	if err != nil {
		fail(err)
	}
	measureDocumentSymbols(ctx, ed, uri, lines, rounds, "right after the queries")
	if msg, err := ed.WaitProgressEnd(ctx, lsp.IsWarmupTitle); err != nil || !strings.Contains(msg, "parsed") {
		fail(fmt.Errorf("indexing: %q, %v", msg, err))
	}
	measureDocumentSymbols(ctx, ed, uri, lines, rounds, "once indexing has ended")
	_ = ed.Shutdown(ctx)
	wait()
}

// measureDocumentSymbols asks for the document symbols of uri rounds
// times and prints the time of the first and the p50/p95 of the others.
func measureDocumentSymbols(ctx context.Context, ed *client.Editor, uri string, lines, rounds int, when string) {
	var times []float64
	for i := range rounds {
		start := time.Now()
		var syms []struct{ Name string }
		if err := ed.Call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": uri}}, &syms); err != nil {
			fail(err)
		}
		ms := float64(time.Since(start).Microseconds()) / 1000
		if i == 0 {
			fmt.Printf("documentSymbol %d lines %s, first: %d symbols, %.1f ms\n", lines, when, len(syms), ms)
		} else {
			times = append(times, ms)
		}
	}
	fmt.Printf("documentSymbol %d lines %s, cached tree: %d rounds, p50 %.1f ms, p95 %.1f ms\n", lines, when, len(times), percentile(times, 50), percentile(times, 95))
}

// generated is a Go file of about n lines: types with fields and methods,
// functions, constants.
func generated(n int) string {
	var b strings.Builder
	b.WriteString("package bench\n\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "// T%d is a type.\ntype T%d struct {\n\tA int\n\tb string\n}\n\nfunc (t *T%d) M() int {\n\treturn t.A\n}\n\nconst C%d = %d\n\nfunc F%d(x int) int {\n\tif x > 0 {\n\t\treturn x\n\t}\n\treturn -x\n}\n\n", i, i, i, i, i, i)
	}
	return b.String()
}

func percentile(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}
