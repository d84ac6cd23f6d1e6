package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"slices"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/structls/structls/grep"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// search is `structls search`: regex search with ripgrep-like flags and
// output (path:line:text). Unlike the LSP command's agent-friendly defaults
// (20 files a page, 20 matches a file, context 1/3), the CLI prints every
// match with no context unless asked, as ripgrep does. Its --text, the
// agent-friendly rendering, stops at 50 KB and ends with the command that
// continues it.
func search(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("search", stdout, stderr)
	var globs multiFlag
	ignoreCase := fs.Bool("i", false, "case-insensitive")
	literal := fs.Bool("F", false, "treat the pattern as a literal string")
	multiline := fs.Bool("U", false, "multiline: matches may span lines (implied by \\n in the pattern)")
	fs.Var(&globs, "g", "include glob, or !glob to exclude (repeatable)")
	ctxBoth := fs.Int("C", 0, "lines of context before and after each match")
	before := fs.Int("B", -1, "lines of context before each match")
	after := fs.Int("A", -1, "lines of context after each match")
	limit := fs.Int("limit", 0, "files to show (0 = unlimited)")
	skip := fs.Int("skip", 0, "files to skip (paging)")
	perFile := fs.Int("per-file-limit", 0, "matches to show per file (0 = unlimited)")
	asJSON := fs.Bool("json", false, "print the structls.search result JSON exactly")
	asText := fs.Bool("text", false, "print the agent-friendly text rendering")
	noIgnore := fs.Bool("no-ignore", false, "do not honour .gitignore/.ignore")
	noHidden := fs.Bool("no-hidden", false, "skip dot files and directories")
	root := fs.String("root", ".", "workspace folder")
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		return exitError, err
	}
	if len(positional) == 0 {
		return exitError, fmt.Errorf("search needs a PATTERN")
	}
	if err := nonNegative(fs, "A", "B", "C"); err != nil {
		return exitError, err
	}
	q := grep.Query{Pattern: positional[0], IgnoreCase: *ignoreCase, Literal: *literal, Scope: workspace.Scope{Paths: positional[1:], Globs: globs},
		Skip: *skip, Limit: limit, PerFileLimit: perFile}
	q.ContextBefore, q.ContextAfter = ctxBoth, ctxBoth
	if *before >= 0 {
		q.ContextBefore = before
	}
	if *after >= 0 {
		q.ContextAfter = after
	}
	if *multiline {
		q.Multiline = multiline
	}
	if *noIgnore {
		q.Gitignore = new(false)
	}
	if *noHidden {
		q.Hidden = new(false)
	}
	if *asText {
		q.Format = "text"
	}

	ctx := context.Background()
	s, err := startSession(ctx, *root, client.EditorOptions{}, lsp.Options{})
	if err != nil {
		return exitError, err
	}
	defer s.close(ctx)
	stdout = s.showProgress(stdout, stderr, *asJSON)
	out := bufio.NewWriterSize(stdout, 64<<10) // one write a line would be one system call a line
	defer out.Flush()
	if *asText && !*asJSON { // the rendering is capped (50 KB a page): it comes whole, in the reply
		var res grep.Result
		if _, err := s.execute(ctx, lsp.CommandSearch, q, &res); err != nil {
			return exitError, err
		}
		fmt.Fprint(out, res.Text)
		if res.NextSkip != nil {
			fmt.Fprintf(out, "For the rest run: %s\n", nextCommand(fs, "search", args, *res.NextSkip))
		}
		return foundOrNot(res.MatchCount), nil
	}
	// The matches stream in (lsp/partial.go) and are printed as they come:
	// nothing printed is kept.
	jsonOut := &streamPrinter{out: out, asJSON: true, command: lsp.CommandSearch}
	lines := &linePrinter{w: out, withContext: *q.ContextBefore+*q.ContextAfter > 0}
	onBatch := lines.batch
	if *asJSON {
		onBatch = jsonOut.batch
	}
	raw, err := s.call(ctx, lsp.CommandSearch, q, onBatch)
	if err != nil {
		return exitError, err
	}
	var res struct { // all the CLI reads of the final reply
		Matches      []grep.Match `json:"matches"` // empty: they were streamed
		MatchCount   int          `json:"matchCount"`
		Warnings     []string     `json:"warnings"`
		MissingPaths []string     `json:"missingPaths"`
	}
	if err := jsonv2.Unmarshal(raw, &res); err != nil {
		return exitError, fmt.Errorf("decoding the %s result: %w", lsp.CommandSearch, err)
	}
	if *asJSON {
		if err := jsonOut.finish(raw, ""); err != nil {
			return exitError, err
		}
		return foundOrNot(res.MatchCount), nil
	}
	lines.print(res.Matches)
	out.Flush() // the matches, then the notes, as structls astgrep prints them
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "structls: %s\n", w)
	}
	for _, m := range res.MissingPaths {
		fmt.Fprintf(stderr, "structls: %s: no such file or directory\n", m)
	}
	return foundOrNot(res.MatchCount), nil
}

// foundOrNot is the exit code of a search that found count matches.
func foundOrNot(count int) int {
	if count == 0 {
		return exitNotFound
	}
	return exitFound
}

// nonNegative returns an error for the first of the named flags given a
// negative value (-A -7 would otherwise read as "not given").
func nonNegative(fs *flag.FlagSet, names ...string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil || !slices.Contains(names, f.Name) {
			return
		}
		if getter, ok := f.Value.(flag.Getter); ok {
			if v, ok := getter.Get().(int); ok && v < 0 {
				err = fmt.Errorf("-%s %d: the number of context lines must be 0 or more", f.Name, v)
			}
		}
	})
	return err
}

// linePrinter prints matches in ripgrep's format as they stream in:
// path:line:text for matches, path-line-text for context, "--" between
// separate groups. A file's matches come whole, in one batch.
type linePrinter struct {
	w           io.Writer
	withContext bool
	files       int          // files printed so far
	matches     []grep.Match // the batch being printed, its array reused
}

// batch prints one streamed batch of matches.
func (p *linePrinter) batch(b client.PartialBatch) error {
	clear(p.matches)
	p.matches = slices.Grow(p.matches[:0], b.Count)
	if err := jsonv2.Unmarshal(slices.Concat([]byte{'['}, b.Matches, []byte{']'}), &p.matches); err != nil {
		return fmt.Errorf("decoding a batch of %s matches: %w", lsp.CommandSearch, err)
	}
	p.print(p.matches)
	return nil
}

// print prints the next matches.
func (p *linePrinter) print(matches []grep.Match) {
	for _, group := range grep.GroupByFile(matches) {
		lines := grep.FileLines(group)
		for i, l := range lines {
			if p.withContext && (i > 0 && l.Number > lines[i-1].Number+1 || i == 0 && p.files > 0) {
				fmt.Fprintln(p.w, "--")
			}
			sep := "-"
			if l.Match {
				sep = ":"
			}
			fmt.Fprintf(p.w, "%s%s%d%s%s\n", group[0].Path, sep, l.Number, sep, l.Text)
		}
		p.files++
	}
}
