package main

import (
	"context"
	"io"
	"strings"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/lsp"
)

// debugView is `structls astgrep --debug-query=VIEW`: it prints the view
// structls.astGrep answers (laid out as ast-grep's --debug-query, on stdout
// rather than ast-grep's stderr, since it is what was asked for), or with
// --json the result exactly; nothing is searched.
func debugView(ctx context.Context, s *session, q astgrep.Query, asJSON bool, stdout, stderr io.Writer) (int, error) {
	var res astgrep.DebugResult
	raw, err := s.execute(ctx, lsp.CommandAstGrep, q, &res)
	if err != nil {
		return exitError, err
	}
	var notes []string
	for _, w := range res.Warnings {
		notes = append(notes, "warning: "+w)
	}
	text := res.Text
	if !strings.HasSuffix(text, "\n") {
		text += "\n" // the S-expression is one line without an end
	}
	printResult(stdout, stderr, raw, text, asJSON, notes)
	return exitFound, nil
}
