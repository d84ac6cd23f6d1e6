package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// continueLine is the last line of a text page that stopped early.
var continueLine = regexp.MustCompile(`\nFor the rest run: structls (\w+) --skip (\d+) (?s:.*)\n$`) // a quoted argument may span lines

// pageThrough runs `structls args...` (args[0] the command) and then each
// command its text ends with, until a page ends without one, and returns
// the pages' stdouts. Each page is at most 50 KB of text plus the line
// naming the next command, and that command is the same one with
// --skip set.
func pageThrough(t *testing.T, wantCode int, args ...string) []string {
	t.Helper()
	var pages []string
	skip := 0
	for range 50 {
		var stdout, stderr bytes.Buffer
		pageArgs := args
		if skip > 0 {
			pageArgs = append(append([]string{}, args...), "--skip", strconv.Itoa(skip))
		}
		if code := run(pageArgs, nil, &stdout, &stderr); code != wantCode {
			t.Fatalf("structls %v: exit %d; want %d (stderr %s)", pageArgs, code, wantCode, stderr.String())
		}
		out := stdout.String()
		pages = append(pages, out)
		m := continueLine.FindStringSubmatchIndex(out)
		if m == nil {
			if len(out) > workspace.MaxTextBytes {
				t.Fatalf("the last page (skip %d) is %d bytes; want at most %d", skip, len(out), workspace.MaxTextBytes)
			}
			return pages
		}
		if text := out[:m[0]+1]; len(text) > workspace.MaxTextBytes {
			t.Fatalf("page at skip %d: %d bytes before the command that continues it; want at most %d", skip, len(text), workspace.MaxTextBytes)
		}
		next, _ := strconv.Atoi(out[m[4]:m[5]])
		if out[m[2]:m[3]] != args[0] || next <= skip {
			t.Fatalf("page at skip %d ends with %q; want structls %s --skip N, N past %d", skip, out[m[0]:], args[0], skip)
		}
		skip = next
	}
	t.Fatalf("structls %v: still more after 50 pages", args)
	return nil
}

// shownOnce checks that the pages show want entries (what entry's first
// group captures), each once, over minPages pages or more.
func shownOnce(t *testing.T, pages []string, entry *regexp.Regexp, want, minPages int) {
	t.Helper()
	seen := map[string]int{}
	for _, page := range pages {
		for _, m := range entry.FindAllStringSubmatch(page, -1) {
			seen[m[1]]++
		}
	}
	if len(pages) < minPages || len(seen) != want {
		t.Fatalf("%d pages showing %d entries; want %d over %d pages or more", len(pages), len(seen), want, minPages)
	}
	for e, n := range seen {
		if n != 1 {
			t.Errorf("%s shown %d times", e, n)
		}
	}
}

// TestSearchTextCap: `structls search --text` stops at 50 KB, at a file's
// end, and ends with the command that continues it; paging through shows
// every file once (issue 22, point 2).
func TestSearchTextCap(t *testing.T) {
	var archive strings.Builder
	long := strings.Repeat("x", 200)
	for i := range 300 {
		fmt.Fprintf(&archive, "-- f%03d.txt --\nneedle %d %s\nneedle again %s\n", i, i, long, long)
	}
	dir := testutil.WriteTree(t, archive.String())
	pages := pageThrough(t, exitFound, "search", "--root", dir, "--text", "needle")
	shownOnce(t, pages, regexp.MustCompile(`(?m)^#+ (f\d+\.txt)$`), 300, 3)
	if !strings.Contains(pages[0], "Showing files 1-") || !strings.Contains(pages[0], "of 300 (the 50 KB text cap)") {
		t.Errorf("the first page does not say what it shows: %s", pages[0][len(pages[0])-300:])
	}
}

// TestXRayTextCap: `structls xray`'s text stops at 50 KB and ends with the
// command that continues it (--skip N, in matches); paging through shows
// every match once, and each page ends with the run's summary (issue 22,
// point 2).
func TestXRayTextCap(t *testing.T) {
	var archive strings.Builder
	for i := range 60 {
		fmt.Fprintf(&archive, "-- f%02d.go --\npackage p\n", i)
	}
	dir := testutil.WriteTree(t, archive.String())
	evaluator := `return {"matches": [{"line_number": 1, "id": "%s#%d" % (file_path, i), "pad": "` + strings.Repeat("p", 100) + `"} for i in range(40)]}`
	pages := pageThrough(t, exitFound, "xray", "--root", dir, "-e", "package", "--eval-code", evaluator)
	shownOnce(t, pages, regexp.MustCompile(`(?m)^  id="(f\d+\.go#\d+)"$`), 2400, 4)
	for _, page := range pages {
		if !strings.Contains(page, "\n2400 matches; 60 of 60 candidate files evaluated\n") {
			t.Errorf("a page lacks the run's summary: %s", page[max(0, len(page)-400):])
		}
	}
}

// TestScanTextCap: `structls scan`'s text report stops at 50 KB at a
// diagnostic's end and ends with the summary, then the command that
// continues it (--skip N, in diagnostics); paging through shows every
// diagnostic once (issue 22, point 2).
func TestScanTextCap(t *testing.T) {
	var archive strings.Builder
	for i := range 40 {
		fmt.Fprintf(&archive, "-- f%02d.go --\npackage p\n\nfunc f() {\n", i)
		for j := range 20 {
			fmt.Fprintf(&archive, "\tprintln(\"f%02d#%02d %s\")\n", i, j, strings.Repeat("z", 60))
		}
		archive.WriteString("}\n")
	}
	dir := testutil.WriteTree(t, archive.String())
	rules := "id: no-println\nlanguage: go\nseverity: warning\nmessage: |-\n  do not print\n\n  (a message with a blank line)\nrule:\n  pattern: println($A)\n"
	pages := pageThrough(t, exitFound, "scan", "--root", dir, "--inline-rules", rules)
	shownOnce(t, pages, regexp.MustCompile(`(?m)^\d+ \|\s+println\("(f\d+#\d+) `), 800, 3)
	for _, page := range pages {
		if !strings.Contains(page, "\n800 diagnostics (0 errors) in 40 files scanned\n") {
			t.Errorf("a page lacks the summary: %s", page[max(0, len(page)-400):])
		}
	}
}
