package astgrep

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// bigMatchesTree has 200 matches of f($A), each on a line of some 600
// bytes: about 120 KB of text rendering, over two pages of the cap.
func bigMatchesTree(t *testing.T) string {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "-- f%02d.go --\npackage p\n\nfunc g() {\n", i)
		for j := range 10 {
			fmt.Fprintf(&b, "\tf(\"%d-%d %s\")\n", i, j, strings.Repeat("x", 600))
		}
		b.WriteString("}\n")
	}
	return testutil.WriteTree(t, b.String())
}

var continuation = regexp.MustCompile(`skip=(\d+)\n$`)

// TestTextCapPagesToTheEnd: a text rendering never exceeds workspace.MaxTextBytes,
// holds exactly the matches its JSON holds, and ends with the skip=N that
// continues it; following those skips from 0 reaches every match once, in
// order — with and without streaming.
func TestTextCapPagesToTheEnd(t *testing.T) {
	dir := bigMatchesTree(t)
	snap := dirSnapshot(t, dir)
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			var seen []string
			skip, pages := 0, 0
			for {
				q := Query{Pattern: "f($A)", Limit: intp(0), Skip: skip, Format: "text"}
				res, text := runText(t, snap, q, stream)
				pages++
				if len(text) > workspace.MaxTextBytes {
					t.Fatalf("page at skip %d: %d bytes of text; want at most %d", skip, len(text), workspace.MaxTextBytes)
				}
				if got := strings.Count(text, "\n*"); got != len(res.Matches) {
					t.Fatalf("page at skip %d shows %d matches in its text, %d in its JSON; want the same", skip, got, len(res.Matches))
				}
				for _, m := range res.Matches {
					seen = append(seen, m.Text)
				}
				if res.NextSkip == nil {
					if continuation.MatchString(text) {
						t.Errorf("the last page ends with a continuation:\n%s", text[max(0, len(text)-200):])
					}
					break
				}
				m := continuation.FindStringSubmatch(text)
				if m == nil || m[1] != strconv.Itoa(*res.NextSkip) || *res.NextSkip != skip+len(res.Matches) {
					t.Fatalf("page at skip %d (%d matches, nextSkip %d) ends with %q; want skip=%d", skip, len(res.Matches),
						*res.NextSkip, text[max(0, len(text)-120):], skip+len(res.Matches))
				}
				skip = *res.NextSkip
				if pages > 10 {
					t.Fatal("more than 10 pages for 200 matches")
				}
			}
			if len(seen) != 200 || pages < 3 {
				t.Fatalf("%d matches over %d pages; want 200 over at least 3", len(seen), pages)
			}
			for i, s := range seen {
				if want := fmt.Sprintf("f(\"%d-%d ", i/10, i%10); !strings.HasPrefix(s, want) {
					t.Fatalf("match %d is %.20s…; want %s… (in order, none twice)", i, s, want)
				}
			}
		})
	}
}

// runText runs a query, streamed or not, and returns the result with its
// matches and its whole text.
func runText(t *testing.T, snap *workspace.Snapshot, q Query, stream bool) (*Result, string) {
	t.Helper()
	ctx := context.Background()
	if !stream {
		res, err := Search(ctx, engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, q)
		if err != nil {
			t.Fatal(err)
		}
		return res, res.Text
	}
	var text strings.Builder
	var matches []Match
	res, err := SearchStream(ctx, engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, q, func(b Batch) error {
		matches = append(matches, b.Matches...)
		text.WriteString(b.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res.Matches = matches
	text.WriteString(res.Text)
	return res, text.String()
}

// TestTextCapCutsAHugeFirstMatch: a match alone over the cap is cut, so
// the page still moves on by one.
func TestTextCapCutsAHugeFirstMatch(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage p\n\nvar _ = f(\""+strings.Repeat("y", 80<<10)+"\")\nvar _ = f(1)\n")
	res, text := runText(t, dirSnapshot(t, dir), Query{Pattern: "f($A)", Limit: intp(0), Format: "text"}, false)
	if len(text) > workspace.MaxTextBytes || !strings.Contains(text, "(cut: this match alone is over 50 KB)") ||
		len(res.Matches) != 1 || res.NextSkip == nil || *res.NextSkip != 1 || !strings.HasSuffix(text, "skip=1\n") {
		t.Errorf("%d bytes, %d matches, ends %q; want at most %d bytes, the first match cut, then skip=1",
			len(text), len(res.Matches), text[max(0, len(text)-100):], workspace.MaxTextBytes)
	}
}

// TestTextCutsMultiLineCaptures: a binding over several lines shows its
// first line and its line count in the meta: line, a one-line one whole.
func TestTextCutsMultiLineCaptures(t *testing.T) {
	dir := testutil.WriteTree(t, `-- a.go --
package p

func g() {
	run(func() {
		a()
		b()
	}, x)
}
`)
	res, _ := runText(t, dirSnapshot(t, dir), Query{Pattern: "run($F, $X)", Format: "text"}, false)
	want := "  meta: F=func() { … (4 lines), X=x\n"
	if !strings.Contains(res.Text, want) {
		t.Errorf("text:\n%s\nwant the line %q", res.Text, want)
	}
	res, _ = runText(t, dirSnapshot(t, dir), Query{Pattern: "run($$$ARGS)", Format: "text"}, false)
	if want := "  meta: ARGS=[func() { … (4 lines)]\n"; !strings.Contains(res.Text, want) {
		t.Errorf("text:\n%s\nwant the line %q", res.Text, want)
	}
}

// TestTextOnly: textOnly returns the text with no matches, streamed or
// not; without format "text" it is refused.
func TestTextOnly(t *testing.T) {
	snap := dirSnapshot(t, testutil.WriteTree(t, pagingTree))
	for _, stream := range []bool{false, true} {
		res, text := runText(t, snap, Query{Pattern: "f($A)", Format: "text", TextOnly: true}, stream)
		if len(res.Matches) != 0 || strings.Count(text, "\n*") != 6 || res.MatchCount != 6 {
			t.Errorf("stream=%v: %d matches in the JSON, text:\n%s\nwant none, and the 6 in the text", stream, len(res.Matches), text)
		}
	}
	if _, err := search(t, testutil.WriteTree(t, pagingTree), Query{Pattern: "f($A)", TextOnly: true}); err == nil ||
		!strings.Contains(err.Error(), `textOnly needs format "text"`) {
		t.Errorf("textOnly without format text: %v; want refused", err)
	}
}

// TestTextCapHoldsWithManyNotes: matches up to the cap and then notes (2,000
// paths not found) stay within workspace.MaxTextBytes together, streamed or not: the
// notes are cut, the continuation stays last.
func TestTextCapHoldsWithManyNotes(t *testing.T) {
	snap := dirSnapshot(t, bigMatchesTree(t))
	paths := []string{"."}
	for i := range 2000 {
		paths = append(paths, fmt.Sprintf("missing/file%04d.go", i))
	}
	for _, stream := range []bool{false, true} {
		res, text := runText(t, snap, Query{Pattern: "f($A)", Limit: intp(0), Format: "text", Scope: workspace.Scope{Paths: paths}}, stream)
		if len(text) > workspace.MaxTextBytes || res.NextSkip == nil || !continuation.MatchString(text) || len(res.MissingPaths) != 2000 {
			t.Errorf("stream=%v: %d bytes, %d missing paths, ends %q; want at most %d bytes ending with skip=N",
				stream, len(text), len(res.MissingPaths), text[max(0, len(text)-100):], workspace.MaxTextBytes)
		}
	}
}
