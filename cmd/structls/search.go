package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"slices"

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
	var res grep.Result
	var decoded any = &res
	if *asJSON {
		decoded = &struct { // the result is printed as it came: only its count (the exit code) is read
			MatchCount *int `json:"matchCount"`
		}{&res.MatchCount}
	}
	raw, err := s.execute(ctx, lsp.CommandSearch, q, decoded)
	if err != nil {
		return exitError, err
	}
	out := bufio.NewWriterSize(stdout, 64<<10) // one write a line would be one system call a line
	defer out.Flush()
	stdout = out
	switch {
	case *asJSON:
		fmt.Fprintf(stdout, "%s\n", raw)
	case *asText:
		fmt.Fprint(stdout, res.Text)
		if res.NextSkip != nil {
			fmt.Fprintf(stdout, "For the rest run: %s\n", nextCommand(fs, "search", args, *res.NextSkip))
		}
	default:
		printMatches(stdout, res.Matches, *q.ContextBefore+*q.ContextAfter > 0)
		for _, w := range res.Warnings {
			fmt.Fprintf(stderr, "structls: %s\n", w)
		}
		for _, m := range res.MissingPaths {
			fmt.Fprintf(stderr, "structls: %s: no such file or directory\n", m)
		}
	}
	if res.MatchCount == 0 {
		return exitNotFound, nil
	}
	return exitFound, nil
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

// printMatches prints ripgrep's format: path:line:text for matches,
// path-line-text for context, "--" between separate groups.
func printMatches(w io.Writer, matches []grep.Match, withContext bool) {
	for g, group := range grep.GroupByFile(matches) {
		lines := grep.FileLines(group)
		for i, l := range lines {
			if withContext && (i > 0 && l.Number > lines[i-1].Number+1 || i == 0 && g > 0) {
				fmt.Fprintln(w, "--")
			}
			sep := "-"
			if l.Match {
				sep = ":"
			}
			fmt.Fprintf(w, "%s%s%d%s%s\n", group[0].Path, sep, l.Number, sep, l.Text)
		}
	}
}
