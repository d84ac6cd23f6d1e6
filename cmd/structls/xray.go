package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
	"github.com/structls/structls/xray"
)

// xrayGoMemory is the soft limit of the Go heap of `structls xray`. The CLI
// runs with GOGC 400 (main.go), which lets garbage grow to four times the
// live heap: with a run's matches streaming through at up to 64 MiB in
// flight, 20 files of 100,000 matches peaked at 0.83-1.06 GiB. Past this
// limit the collector runs as often as it needs to (the runtime caps that
// work at half the CPU), so the peak stays near the live heap; an ordinary
// run (every call in the Go standard library: 0.35 GiB) never reaches it.
const xrayGoMemory = 512 << 20

// xrayCmd is `structls xray`: the two-phase search. It prints the text
// rendering (matches grouped by file with their fields, then file metadata
// and evaluation errors), or the structls.xray result JSON with --json.
// The exit code is 0 with matches, 1 without, 2 when the query is refused
// or the evaluation failed in every file evaluated (an evaluator that
// breaks everywhere has found nothing, not "nothing").
func xrayCmd(args []string, stdout, stderr io.Writer) (int, error) {
	debug.SetMemoryLimit(xrayGoMemory)
	fs := newFlagSet("xray", stdout, stderr)
	var globs multiFlag
	driver := fs.String("e", "", "the driver regex: picks candidate files and hit positions")
	evalFile := fs.String("eval", "", "a file holding the evaluator (Starlark, a function body)")
	evalCode := fs.String("eval-code", "", "the evaluator code itself")
	target := fs.String("target", "content", "what the driver searches: content or filename")
	ignoreCase := fs.Bool("i", false, "case-insensitive driver")
	fileTimeout := fs.Int("file-timeout-ms", xray.DefaultFileTimeoutMs, "time limit of one file's evaluation, in milliseconds")
	timeout := fs.Int("timeout-seconds", xray.DefaultTimeoutSeconds, "time limit of the whole run, in seconds")
	maxFiles := fs.Int("max-files", 0, "evaluate at most this many candidate files, the first in path order (0 = all)")
	contextLines := fs.Int("context-lines", 0, "lines around each hit in match_positions (0..10)")
	skip := fs.Int("skip", 0, "matches to skip (paging: the text shows at most 50 KB a page)")
	fs.Var(&globs, "g", "include glob, or !glob to exclude (repeatable)")
	asJSON := fs.Bool("json", false, "print the structls.xray result JSON exactly")
	dumpAst := fs.String("dump-ast", "", "print FILE's syntax tree (breadth-first, --max-nodes nodes) instead of searching")
	maxNodes := fs.Int("max-nodes", xray.MaxDebugNodes, "nodes --dump-ast prints")
	root := fs.String("root", ".", "workspace folder")
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return exitError, err
	}
	if *dumpAst != "" {
		q, err := dumpAstQuery(*root, *dumpAst, *maxNodes)
		if err != nil {
			return exitError, err
		}
		return runXRay(q, *root, *asJSON, nil, stdout, stderr)
	}
	if *driver == "" {
		return exitError, fmt.Errorf("xray needs a driver regex: -e REGEX (-e . --target filename takes every file)")
	}
	code := *evalCode
	switch {
	case *evalFile != "" && *evalCode != "":
		return exitError, fmt.Errorf("give the evaluator either with --eval FILE or with --eval-code CODE, not both")
	case *evalFile != "":
		src, err := os.ReadFile(*evalFile)
		if err != nil {
			return exitError, fmt.Errorf("reading the evaluator: %w", err)
		}
		code = string(src)
	}
	q := xray.Query{Driver: *driver, Evaluator: code, Target: *target, IgnoreCase: *ignoreCase, ContextLines: *contextLines,
		Scope: workspace.Scope{Paths: paths, Globs: globs}, FileTimeoutMs: fileTimeout, TimeoutSeconds: timeout, Skip: *skip}
	if *maxFiles != 0 {
		q.MaxFiles = maxFiles
	}
	next := func(skip int) string { return nextCommand(fs, "xray", args, skip) }
	return runXRay(q, *root, *asJSON, next, stdout, stderr)
}

// dumpAstQuery is the query --dump-ast runs: the one file, explore mode,
// one match on line 1, whose subject is the whole file.
func dumpAstQuery(root, file string, maxNodes int) (xray.Query, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return xray.Query{}, err
	}
	absFile, err := filepath.Abs(file)
	if err != nil {
		return xray.Query{}, err
	}
	rel, err := filepath.Rel(absRoot, absFile)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return xray.Query{}, fmt.Errorf("--dump-ast %s: the file is outside the workspace root %s (set --root)", file, root)
	}
	rel = filepath.ToSlash(rel)
	return xray.Query{Driver: "^" + regexp.QuoteMeta(rel) + "$", Target: "filename", Scope: workspace.Scope{Paths: []string{rel}},
		Evaluator: `return {"matches": [{"line_number": 1}]}`, IncludeAst: true, MaxDebugNodes: &maxNodes}, nil
}

// runXRay runs the query through an in-process server and prints the text
// rendering, or the JSON, and what the evaluator printed on stderr; it
// returns the exit code. A text page that stopped at its cap ends with
// next(skip), the command that continues it.
func runXRay(q xray.Query, root string, asJSON bool, next func(skip int) string, stdout, stderr io.Writer) (int, error) {
	if !asJSON {
		q.Format = "text"
	}
	ctx := context.Background()
	s, err := startSession(ctx, root, client.EditorOptions{}, lsp.Options{})
	if err != nil {
		return exitError, err
	}
	defer s.close(ctx)
	stdout = s.showProgress(stdout, stderr, asJSON)
	// The matches are printed as they come, and not kept (see streamPrinter).
	out := bufio.NewWriterSize(stdout, 64<<10)
	printer := &streamPrinter{out: out, asJSON: asJSON, command: lsp.CommandXRay}
	raw, err := s.call(ctx, lsp.CommandXRay, q, printer.batch)
	printed(s.editor, stderr)
	if err != nil {
		out.Flush()
		return exitError, err
	}
	var res struct {
		Text             string `json:"text"`
		MatchCount       int    `json:"matchCount"`
		NextSkip         *int   `json:"nextSkip"`
		FilesEvaluated   int    `json:"filesEvaluated"`
		EvaluationErrors []struct {
			Path string `json:"path"`
		} `json:"evaluationErrors"`
	}
	if err := jsonv2.Unmarshal(raw, &res); err != nil {
		return exitError, fmt.Errorf("decoding the %s result: %w", lsp.CommandXRay, err)
	}
	if !asJSON && res.NextSkip != nil && next != nil {
		res.Text += "For the rest run: " + next(*res.NextSkip) + "\n"
	}
	if err := printer.finish(raw, res.Text); err != nil {
		return exitError, err
	}
	failed := map[string]bool{}
	for _, e := range res.EvaluationErrors {
		failed[e.Path] = true
	}
	switch {
	case res.MatchCount == 0 && res.FilesEvaluated > 0 && len(failed) >= res.FilesEvaluated:
		// Not "nothing found": nothing was looked at.
		fmt.Fprintf(stderr, "structls: xray: the evaluation failed in every file evaluated (%s): see the evaluation errors\n",
			english.Count(res.FilesEvaluated, "file", "files"))
		return exitError, nil
	case res.MatchCount == 0:
		return exitNotFound, nil
	}
	return exitFound, nil
}

// printed writes what the evaluators printed (the server sends it as log
// messages, lsp.XRayPrintPrefix) on stderr.
func printed(ed *client.Editor, stderr io.Writer) {
	for _, msg := range ed.Logs() {
		if rest, ok := strings.CutPrefix(msg, lsp.XRayPrintPrefix); ok {
			fmt.Fprintf(stderr, "structls: xray print: %s\n", rest)
		}
	}
}
