package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// astgrepGoMemory is the soft limit of the Go heap of `structls astgrep`.
// Stdlib, make pattern, three rounds of one run: peak RSS 113-115 MB at
// 32 MiB, 104-106 at 24 and 103 at 16 (5.4-5.8 s user at 32 and 24, 5.6-6.0
// at 16), once workers stopped keeping the node slices and read buffers of
// huge files; before that 24 cost 15% more CPU.
const astgrepGoMemory = 24 << 20

// astgrepParseBudget is the source bytes `structls astgrep` parses at once:
// 1 MiB keeps two large files from parsing side by side (tree-sitter takes
// about 40 bytes a byte), so the peak stays under ast-grep's, for some
// 7% more wall time than the default (syntax.DefaultParseBudget).
const astgrepParseBudget = 1 << 20

// astgrepArenaKeep is the arena each parsing goroutine of `structls
// astgrep` keeps between files (syntax.ParseOptions.ArenaKeep): with the default
// 64 MiB, its peak on `$A := make($T, $N)` was 116 MB against ast-grep's
// 94 in the same run (bench/memory.sh).
const astgrepArenaKeep = 4 << 20

// astgrep is `structls astgrep`: structural search with ast-grep patterns.
// It prints the grouped text rendering (matches with their bindings), or
// with --json the structls.astGrep result exactly; warnings and paths not
// found go to stderr as well. Its text shows 50 matches unless --limit
// says otherwise (0: all), like the seed ast_grep tool, and at most 50 KB
// (workspace.MaxTextBytes); a page that stops early ends with the command
// that continues it. --json shows every match unless --limit says
// otherwise, like `ast-grep run --json`.
func astgrepCmd(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("astgrep", stdout, stderr)
	var globs multiFlag
	pattern := fs.String("p", "", "the pattern: code with metavariables ($A, $$$ARGS, $_)")
	language := fs.String("l", "", "search files of this language only (and parse the pattern in it)")
	strictness := fs.String("strictness", "", "cst, smart (default), ast, relaxed, signature or template")
	selector := fs.String("selector", "", "the kind of the node, inside the pattern, to match")
	limit := fs.Int("limit", astgrep.DefaultLimit, "matches to show (0 = all; text at most 50 KB a page); with --json the default is 0")
	skip := fs.Int("skip", 0, "matches to skip (paging)")
	contextLines := fs.Int("C", 0, "lines of context around each match (JSON only)")
	fs.Var(&globs, "g", "include glob, or !glob to exclude (repeatable)")
	asJSON := fs.Bool("json", false, "print the structls.astGrep result JSON exactly")
	root := fs.String("root", ".", "workspace folder")
	debugQuery := fs.String("debug-query", "", "print a view instead of searching, as ast-grep: pattern, or ast, cst, sexp (of -p, or without -p of the one file given)")
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		return exitError, err
	}
	patternGiven, limitGiven := false, false
	fs.Visit(func(f *flag.Flag) {
		patternGiven = patternGiven || f.Name == "p"
		limitGiven = limitGiven || f.Name == "limit"
	})
	if !patternGiven && *debugQuery == "" && len(positional) > 0 {
		*pattern, positional = positional[0], positional[1:]
	}
	if strings.TrimSpace(*pattern) == "" && *debugQuery == "" {
		return exitError, fmt.Errorf("astgrep needs a non-empty pattern: -p 'CODE', e.g. -p 'foo($A)'")
	}
	format := "text"
	if *asJSON {
		format = "json" // the matches only: no text rendering to build, send and print
		if !limitGiven {
			*limit = 0
		}
	}
	q := astgrep.Query{Pattern: *pattern, Lang: *language, Strictness: *strictness, Selector: *selector,
		Limit: limit, Skip: *skip, ContextLines: *contextLines, Scope: workspace.Scope{Globs: globs, Paths: positional}, Format: format, DebugQuery: *debugQuery}
	// The matches stream through (nothing printed is kept), so the Go heap
	// stays near its live size, tens of MB; a soft limit keeps the collector
	// from letting garbage grow past that while tree-sitter's own memory,
	// outside the Go heap, takes the most of the process's peak.
	debug.SetMemoryLimit(astgrepGoMemory)
	ctx := context.Background()
	s, err := startSession(ctx, *root, client.EditorOptions{}, lsp.Options{Parse: syntax.ParseOptions{Budget: astgrepParseBudget, ArenaKeep: astgrepArenaKeep, FreeHeapBeforeLoneParses: true}})
	if err != nil {
		return exitError, err
	}
	defer s.close(ctx)
	if q.DebugQuery != "" {
		return debugView(ctx, s, q, *asJSON, stdout, stderr)
	}
	stdout = s.showProgress(stdout, stderr, *asJSON)
	out := bufio.NewWriterSize(stdout, 64<<10)
	printer := &streamPrinter{out: out, asJSON: *asJSON, command: lsp.CommandAstGrep}
	raw, err := s.call(ctx, lsp.CommandAstGrep, q, printer.batch)
	if err != nil {
		out.Flush()
		return exitError, err
	}
	var res struct { // all the CLI reads of the final reply
		Text         string   `json:"text"`
		MatchCount   int      `json:"matchCount"`
		NextSkip     *int     `json:"nextSkip"`
		Warnings     []string `json:"warnings"`
		MissingPaths []string `json:"missingPaths"`
	}
	if err := jsonv2.Unmarshal(raw, &res); err != nil {
		return exitError, fmt.Errorf("decoding the %s result: %w", lsp.CommandAstGrep, err)
	}
	if !*asJSON && res.NextSkip != nil {
		res.Text += "For the rest run: " + nextCommand(fs, "astgrep", args, *res.NextSkip) + "\n"
	}
	if err := printer.finish(raw, res.Text); err != nil {
		return exitError, err
	}
	var notes []string
	for _, w := range res.Warnings {
		if *asJSON { // the text rendering already ends with each as a Note: one stream only
			notes = append(notes, "warning: "+w)
		}
	}
	for _, m := range res.MissingPaths {
		notes = append(notes, m+": no such file or directory")
	}
	printResult(stdout, stderr, nil, "", false, notes) // the result itself was printed as it came: the notes
	if res.MatchCount == 0 {
		return exitNotFound, nil
	}
	return exitFound, nil
}

// languages is `structls languages`: the catalogue.
func languages(stdout io.Writer) (int, error) {
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	fmt.Fprintf(out, "%-11s %-7s %-38s %s\n", "LANGUAGE", "EXPANDO", "ALIASES", "FILES")
	for _, l := range lang.All() {
		expando := "$"
		if l.Expando != 0 {
			expando = string(l.Expando)
		}
		files := append(append([]string{}, l.FileNames...), prefixAll("*.", l.Extensions)...)
		fmt.Fprintf(out, "%-11s %-7s %-38s %s\n", l.Name, expando, strings.Join(l.Aliases, " "), strings.Join(files, " "))
	}
	return exitFound, nil
}

func prefixAll(prefix string, items []string) []string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = prefix + s
	}
	return out
}
