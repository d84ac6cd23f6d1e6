package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime/debug"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/outline"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// outlineGoMemory, outlineParseBudget and outlineArenaKeep are the Go
// heap's soft limit, the source bytes parsed at once and the arena each
// parsing goroutine keeps between files, for `structls outline`: the
// outline streams, so the Go heap stays near its live size (the window of
// files outlined ahead, and the batch being printed). Over the Go standard
// library (--json --items structure, 144 MB of JSON) a 24 MiB limit, as
// `structls astgrep`'s, cost 20.2 s of CPU for a 97 MB peak, 64 MiB 11.8 s
// for 126 MB and 256 MiB 11.0 s for 173 MB (ast-grep's peak: 143-172 MB; load 13).
const (
	outlineGoMemory    = 64 << 20
	outlineParseBudget = 1 << 20
	outlineArenaKeep   = 4 << 20
)

// outlineCmd is `structls outline`: what files declare, in one of the four
// text views of ast-grep's outline, or the structls.outline result JSON
// with --json. The files stream as they are outlined (lsp/partial.go), so
// nothing printed stays in memory. The text is at most 50 KB
// (workspace.MaxTextBytes) a page; a page that stops early ends with the
// command that continues it. Exit 0 when some file has items, 1 when none
// has, 2 on error.
func outlineCmd(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("outline", stdout, stderr)
	var globs, types multiFlag
	items := fs.String("items", outline.ItemsAuto, "top-level items: auto (structure for files, exports for directories), structure, exports, imports or all")
	fs.Var(&types, "type", "keep only items of these symbol types (comma-separated, repeatable): function,class,…")
	match := fs.String("match", "", "keep only items whose name or signature this regex (RE2) matches")
	view := fs.String("view", outline.ViewAuto, "text view: auto (digest for files, names for directories), names, signatures, digest or expanded")
	pubMembers := fs.Bool("pub-members", false, "show only public members")
	language := fs.String("l", "", "only files of this language")
	fs.Var(&globs, "g", "include glob, or !glob to exclude (repeatable)")
	skip := fs.Int("skip", 0, "files to skip (paging: the text is at most 50 KB a page)")
	asJSON := fs.Bool("json", false, "print the structls.outline result JSON exactly")
	root := fs.String("root", ".", "workspace folder")
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return exitError, err
	}
	unlimited := 0
	q := outline.Query{Scope: workspace.Scope{Paths: paths, Globs: globs}, Lang: *language, Items: *items, Types: types, Match: *match, View: *view,
		PubMembers: *pubMembers, Skip: *skip, Limit: &unlimited}
	if !*asJSON {
		q.Format, q.TextOnly = "text", true
	}
	debug.SetMemoryLimit(outlineGoMemory)
	ctx := context.Background()
	s, err := startSession(ctx, *root, client.EditorOptions{}, lsp.Options{Parse: syntax.ParseOptions{Budget: outlineParseBudget, ArenaKeep: outlineArenaKeep, FreeHeapBeforeLoneParses: true}})
	if err != nil {
		return exitError, err
	}
	defer s.close(ctx)
	out := bufio.NewWriterSize(stdout, 64<<10)
	printer := &streamPrinter{out: out, asJSON: *asJSON, command: lsp.CommandOutline, field: "files"}
	raw, err := s.editor.ExecuteCommandBatches(ctx, lsp.CommandOutline, q, printer.batch)
	if err != nil {
		out.Flush()
		return exitError, err
	}
	var res struct { // all the CLI reads of the final reply
		ItemCount    int      `json:"itemCount"`
		LimitReached bool     `json:"limitReached"`
		NextSkip     *int     `json:"nextSkip"`
		Warnings     []string `json:"warnings"`
		Text         string   `json:"text"`
	}
	if err := jsonv2.Unmarshal(raw, &res); err != nil {
		return exitError, fmt.Errorf("decoding the %s result: %w", lsp.CommandOutline, err)
	}
	if !*asJSON && res.NextSkip != nil {
		res.Text += "For the rest run: " + nextCommand(fs, "outline", args, *res.NextSkip) + "\n"
	}
	if err := printer.finish(raw, res.Text); err != nil {
		return exitError, err
	}
	printResult(stdout, stderr, nil, "", false, res.Warnings) // the result itself was printed as it came: the notes
	if res.ItemCount > 0 {
		return exitFound, nil
	}
	return exitNotFound, nil
}
