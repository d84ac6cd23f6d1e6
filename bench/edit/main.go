// Command edit measures the rewrite engine on a directory: a preview of one
// pattern → rewrite op (with the text rendering and unified diff that
// `structls edit` will print, as ast-grep prints its diff), and with -apply,
// writing that preview to the files. It drives rewrite.Preview directly
// until the CLI's `structls edit` exists. bench/edit.sh runs it.
//
// usage: go run ./bench/edit [-apply] [-print] [-cpuprofile FILE] ROOT LANG PATTERN REWRITE
//
// It prints one line: files touched, replacements, preview seconds, apply
// seconds (0 without -apply); with -print, the preview text goes to stdout
// first.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	_ "github.com/structls/structls/matcher/lang/grammars"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

func main() {
	apply := flag.Bool("apply", false, "write the preview to the files")
	print := flag.Bool("print", false, "print the preview text (the unified diff) to stdout")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	if flag.NArg() != 4 {
		fmt.Fprintln(os.Stderr, "usage: edit [-apply] [-print] ROOT LANG PATTERN REWRITE")
		os.Exit(2)
	}
	root, language, pattern, rewriteText := flag.Arg(0), flag.Arg(1), flag.Arg(2), flag.Arg(3)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(root, language, pattern, rewriteText, *apply, *print); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func run(root, language, pattern, rewriteText string, apply, print bool) error {
	ctx := context.Background()
	folder, err := workspace.NewFolder(root, "")
	if err != nil {
		return err
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	start := time.Now()
	plan, err := rewrite.Preview(ctx, snap, rewrite.Query{Ops: []rewrite.Op{{Pattern: pattern, Rewrite: &rewriteText}},
		Lang: language, MaxFiles: 1 << 30, Format: "text"}, workspace.UTF8, nil, nil)
	if err != nil {
		return err
	}
	if print {
		os.Stdout.WriteString(plan.Result().Text)
	}
	previewSecs := time.Since(start).Seconds()
	applySecs := 0.0
	if apply {
		start = time.Now()
		if err := plan.WriteFiles(ctx, snap); err != nil {
			return err
		}
		applySecs = time.Since(start).Seconds()
	}
	res := plan.Result()
	fmt.Fprintf(os.Stderr, "%d\t%d\t%.3f\t%.3f\n", res.FilesTouched, res.TotalReplacements, previewSecs, applySecs)
	return nil
}
