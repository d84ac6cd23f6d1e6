package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/matcher"
)

// TestAstgrepStreamsTheResultExactly: `structls astgrep` prints its matches
// as the server streams them (partial results), and what it prints is
// exactly the unstreamed reply: with --json the reply's bytes, else its
// text — for all matches, a page, and none.
func TestAstgrepStreamsTheResultExactly(t *testing.T) {
	var archive strings.Builder
	for i := range 30 {
		fmt.Fprintf(&archive, "-- d%d/f%02d.go --\npackage p\n\nfunc g() { f(%d); f(\"<&>\", x) }\n", i%4, i, i)
	}
	archive.WriteString("-- a/x.go --\npackage a\n\nfunc g() { f(1) }\n-- a.go --\npackage a\n\nfunc g() { f(2) }\n")
	dir := testutil.WriteTree(t, archive.String())
	ctx := context.Background()
	s, err := startSession(ctx, dir, lsp.EditorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close(ctx)
	for _, tt := range []struct {
		pattern     string
		skip, limit int
	}{
		{"f($$$A)", 0, 0},
		{"f($A)", 3, 10},
		{"nothing($A)", 0, 0},
	} {
		for _, asJSON := range []bool{true, false} {
			format, args := "text", []string{"astgrep", "--root", dir, "-p", tt.pattern, "--skip", fmt.Sprint(tt.skip), "--limit", fmt.Sprint(tt.limit)}
			if asJSON {
				format, args = "json", append(args, "--json")
			}
			limit := tt.limit
			var want struct {
				Text string `json:"text"`
			}
			raw, err := s.execute(ctx, lsp.CommandAstGrep, matcher.Query{Pattern: tt.pattern, Skip: tt.skip, Limit: &limit, Format: format}, &want)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			run(args, nil, &stdout, &stderr)
			wantOut := want.Text
			if asJSON {
				wantOut = string(raw) + "\n"
			}
			if stdout.String() != wantOut {
				t.Errorf("%v: printed\n%.600s\nthe unstreamed reply is\n%.600s", args[3:], stdout.String(), wantOut)
			}
		}
	}
}
