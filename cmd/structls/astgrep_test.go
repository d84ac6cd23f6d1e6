package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
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
	s, err := startSession(ctx, dir, client.EditorOptions{}, lsp.Options{})
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
				Text     string `json:"text"`
				NextSkip *int   `json:"nextSkip"`
			}
			raw, err := s.execute(ctx, lsp.CommandAstGrep, astgrep.Query{Pattern: tt.pattern, Skip: tt.skip, Limit: &limit, Format: format}, &want)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			run(args, nil, &stdout, &stderr)
			wantOut := want.Text
			if want.NextSkip != nil { // the text ends with the command that continues it
				wantOut += fmt.Sprintf("For the rest run: structls astgrep --skip %d --root %s -p '%s' --limit %d\n", *want.NextSkip, dir, tt.pattern, tt.limit)
			}
			if asJSON {
				wantOut = string(raw) + "\n"
			}
			if stdout.String() != wantOut {
				t.Errorf("%v: printed\n%.600s\nthe unstreamed reply is\n%.600s", args[3:], stdout.String(), wantOut)
			}
		}
	}
}

// TestAstgrepTextPagesForAModel: the text shows 50 matches by default and
// at most 50 KB, and ends with the exact command that continues it: run in
// a shell, those commands reach every match once; --limit 0 shows all that
// fit, and --json still every match.
func TestAstgrepTextPagesForAModel(t *testing.T) {
	var archive strings.Builder
	for i := range 120 {
		fmt.Fprintf(&archive, "-- f%03d.go --\npackage p\n\nfunc g() { f(%d, \"%s\") }\n", i, i, strings.Repeat("y", 10*(i/60)*100))
	}
	dir := testutil.WriteTree(t, archive.String()) // matches 60-119 are over 1 KB each
	follow := func(first string) (pages []string, matches int) {
		command := first
		for len(pages) < 20 {
			out, _ := exec.Command("sh", "-c", command).Output()
			pages = append(pages, string(out))
			matches += strings.Count(string(out), "\n*")
			if len(out) > workspace.MaxTextBytes+512 {
				t.Errorf("a page of %d bytes: want at most 50 KB and the command line", len(out))
			}
			last := strings.TrimSuffix(string(out), "\n")
			last = last[strings.LastIndexByte(last, '\n')+1:]
			next, ok := strings.CutPrefix(last, "For the rest run: structls ")
			if !ok {
				return pages, matches
			}
			command = shellQuote(binary) + " " + next
		}
		t.Fatalf("more than 20 pages")
		return
	}
	base := shellQuote(binary) + " astgrep --root " + shellQuote(dir) + " -p 'f($A, $B)'"
	pages, n := follow(base)
	if n != 120 || len(pages) < 3 || strings.Count(pages[0], "\n*") != 50 {
		t.Errorf("default: %d matches over %d pages, %d on the first; want 120, the first page 50 (the default limit)",
			n, len(pages), strings.Count(pages[0], "\n*"))
	}
	pages, n = follow(base + " --limit 0")
	if n != 120 || len(pages) < 2 || !strings.Contains(pages[0], "(the 50 KB text cap)") {
		t.Errorf("--limit 0: %d matches over %d pages; want 120 over pages of at most 50 KB", n, len(pages))
	}
	out, _ := exec.Command("sh", "-c", base+" --json").Output()
	if c := strings.Count(string(out), `"metaVariables"`); c != 120 {
		t.Errorf("--json: %d matches; want all 120", c)
	}
}

// TestAstgrepTextOnlyThroughTheServer: structls.astGrep with format "text"
// and textOnly answers the text and no matches.
func TestAstgrepTextOnlyThroughTheServer(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage p\n\nfunc g() { f(1); f(2) }\n")
	ctx := context.Background()
	s, err := startSession(ctx, dir, client.EditorOptions{}, lsp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close(ctx)
	var res struct {
		Matches    []any  `json:"matches"`
		MatchCount int    `json:"matchCount"`
		Text       string `json:"text"`
	}
	if _, err := s.execute(ctx, lsp.CommandAstGrep, astgrep.Query{Pattern: "f($A)", Format: "text", TextOnly: true}, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 0 || res.MatchCount != 2 || strings.Count(res.Text, "meta: A=") != 2 {
		t.Errorf("%d matches, matchCount %d, text %q; want the text of 2 matches alone", len(res.Matches), res.MatchCount, res.Text)
	}
}

// TestAstgrepTextTotals: the text ends with the totals ("N matches in M
// files") or, for a page, the matches shown of the total and the exact
// command that continues it; the parse issues listed are no more than the
// matches shown, with the number left out (issue 23, point 5).
func TestAstgrepTextTotals(t *testing.T) {
	var archive strings.Builder
	for i := range 20 {
		fmt.Fprintf(&archive, "-- broken%02d.go --\npackage p\n\nfunc g() { f(%d) }\n\nfunc (\n", i, i)
	}
	archive.WriteString("-- ok.go --\npackage p\n\nfunc h() { f(1); f(2) }\n")
	dir := testutil.WriteTree(t, archive.String())
	for _, tc := range []struct {
		name   string
		args   []string
		suffix string // the end of stdout
		issues string // the head of the parse issues
		listed int    // parse issues listed
	}{
		{"all", []string{"--limit", "0"}, "\n22 matches in 21 files\n", "\nParse issues:\n", 20},
		{"one file", []string{"ok.go"}, "\n2 matches in 1 file\n", "", 0},
		{"a page", []string{"--limit", "3"}, "\nResult limit reached (matches 1-3 of 22 in 21 files); narrow paths, or for the rest repeat the query with skip=3\n" +
			"For the rest run: structls astgrep --skip 3 --root " + dir + " -l go -p 'f($A)' --limit 3\n", "\nParse issues (3 of 20; 17 more not listed):\n", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"astgrep", "--root", dir, "-l", "go", "-p", "f($A)"}, tc.args...), nil, &stdout, &stderr)
			out := stdout.String()
			if code != exitFound || !strings.HasSuffix(out, tc.suffix) || !strings.Contains(out, tc.issues) ||
				strings.Count(out, ": parse error (syntax tree contains error nodes)") != tc.listed {
				t.Errorf("exit %d, stdout\n%s\nwant it to end with %q, list %d parse issues under %q", code, out, tc.suffix, tc.listed, tc.issues)
			}
		})
	}
}
