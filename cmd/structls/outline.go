package main

import (
	"context"
	"io"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/outline"
)

// outlineCmd is `structls outline`: what files declare, in one of the four
// text views of ast-grep's outline, or the structls.outline result JSON
// with --json. Exit 0 when some file has items, 1 when none has, 2 on error.
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
	asJSON := fs.Bool("json", false, "print the structls.outline result JSON exactly")
	root := fs.String("root", ".", "workspace folder")
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return exitError, err
	}
	unlimited := 0
	q := outline.Query{Paths: paths, Globs: globs, Lang: *language, Items: *items, Types: types, Match: *match, View: *view,
		PubMembers: *pubMembers, Limit: &unlimited}
	if !*asJSON {
		q.Format, q.TextOnly = "text", true
	}
	ctx := context.Background()
	s, err := startSession(ctx, *root, lsp.EditorOptions{})
	if err != nil {
		return exitError, err
	}
	defer s.close(ctx)
	var res struct {
		ItemCount int      `json:"itemCount"`
		Warnings  []string `json:"warnings"`
		Text      string   `json:"text"`
	}
	raw, err := s.execute(ctx, lsp.CommandOutline, q, &res)
	if err != nil {
		return exitError, err
	}
	printResult(stdout, stderr, raw, res.Text, *asJSON, res.Warnings)
	if res.ItemCount > 0 {
		return exitFound, nil
	}
	return exitNotFound, nil
}
