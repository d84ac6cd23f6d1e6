package mcp

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// manyFiles is a workspace of n Go files, each with per functions whose
// bodies have bodyLines lines.
func manyFiles(n, per, bodyLines int) map[string]string {
	files := map[string]string{}
	for f := range n {
		var b strings.Builder
		b.WriteString("package p\n\n")
		for i := range per {
			fmt.Fprintf(&b, "func F%d_%d() {\n", f, i)
			for l := range bodyLines {
				fmt.Fprintf(&b, "\tcall%d(%q)\n", l, strings.Repeat("x", 60))
			}
			b.WriteString("}\n\n")
		}
		files[fmt.Sprintf("dir%d/f%03d.go", f%3, f)] = b.String()
	}
	return files
}

// matchLine finds a match's first line in an ast_grep reply.
var matchLine = regexp.MustCompile(`(?m)^\*(\d+)\|func (F\d+_\d+)\(`)

// pageAll calls a tool page after page until no skip follows, checking
// each page's cap and that the skip it names is the one the summary
// gives, and returns the pages.
func pageAll(t *testing.T, h *harness, tool string, args map[string]any) []reply {
	t.Helper()
	var pages []reply
	skip := 0
	for range 1000 {
		args["skip"] = skip
		r := h.ok(tool, args)
		if len(r.text) > MaxReplyBytes {
			t.Fatalf("%s page at skip %d is %d bytes, over the %d cap", tool, skip, len(r.text), MaxReplyBytes)
		}
		pages = append(pages, r)
		next := r.nextSkip()
		m := skipLine.FindStringSubmatch(r.text)
		if next < 0 {
			if m != nil {
				t.Fatalf("%s page at skip %d ends with skip=%s but its summary has no nextSkip", tool, skip, m[1])
			}
			return pages
		}
		if m == nil || m[1] != strconv.Itoa(next) {
			t.Fatalf("%s page at skip %d: nextSkip %d, but the text ends %q", tool, skip, next, r.text[max(0, len(r.text)-200):])
		}
		if next <= skip {
			t.Fatalf("%s: skip %d does not move on (next %d)", tool, skip, next)
		}
		skip = next
	}
	t.Fatalf("%s: no last page after 1000", tool)
	return nil
}

// TestAstGrepPagesToTheEnd pages through every match, limit 50 at a time,
// and sees each exactly once.
func TestAstGrepPagesToTheEnd(t *testing.T) {
	h := start(t, manyFiles(7, 19, 1), harnessOptions{}) // 133 small matches
	pages := pageAll(t, h, "ast_grep", map[string]any{"pat": "func $F() { $$$B }"})
	if len(pages) != 3 {
		t.Errorf("%d pages, want 3 (50, 50, 33)", len(pages))
	}
	seen := map[string]int{}
	for _, p := range pages {
		for _, m := range matchLine.FindAllStringSubmatch(p.text, -1) {
			seen[m[2]]++
		}
		if p.summary["matchCount"] != float64(133) {
			t.Errorf("matchCount %v, want 133", p.summary["matchCount"])
		}
	}
	if len(seen) != 133 {
		t.Errorf("saw %d distinct matches, want 133", len(seen))
	}
	for name, n := range seen {
		if n != 1 {
			t.Errorf("%s seen %d times", name, n)
		}
	}
}

// TestAstGrepCapAt50KB asks for every match of a pattern whose matches are
// large: each reply stops at 50 KB, names the skip that continues, and the
// pages hold every match once; multi-line captures show their first line.
func TestAstGrepCapAt50KB(t *testing.T) {
	h := start(t, manyFiles(4, 30, 12), harnessOptions{}) // 120 matches of ~1 KB each
	pages := pageAll(t, h, "ast_grep", map[string]any{"pat": "func $F() { $$$B }", "limit": 0})
	if len(pages) < 3 {
		t.Fatalf("%d pages: the 120 KB of matches should need at least 3", len(pages))
	}
	seen := map[string]int{}
	for i, p := range pages {
		for _, m := range matchLine.FindAllStringSubmatch(p.text, -1) {
			seen[m[2]]++
		}
		if i < len(pages)-1 && p.summary["truncated"] != true {
			t.Errorf("page %d: truncated %v, want true", i, p.summary["truncated"])
		}
	}
	if len(seen) != 120 {
		t.Errorf("saw %d distinct matches, want 120", len(seen))
	}
	for name, n := range seen {
		if n != 1 {
			t.Errorf("%s seen %d times", name, n)
		}
	}
	// $$$B binds 12 statements: its meta line shows the first and the count.
	if !strings.Contains(pages[0].text, `  meta: B=[call0("`+strings.Repeat("x", 60)+`"), call1(`) &&
		!strings.Contains(pages[0].text, "… (") {
		t.Errorf("no cut meta line in %.600s", pages[0].text)
	}
	metaCut := regexp.MustCompile(`(?m)^  meta: B=\[call0\("x+"\)\n, .*$`)
	if metaCut.MatchString(pages[0].text) {
		t.Errorf("a meta line spans lines")
	}
	for _, l := range strings.Split(pages[0].text, "\n") {
		if strings.HasPrefix(l, "  meta:") && !strings.Contains(l, "… (12 lines)") {
			t.Errorf("meta line %q: want the capture cut to its first line and \"… (12 lines)\"", l)
		}
	}
}

// TestOneHugeMatchIsCut checks a single match over 50 KB is cut, and the
// next page moves on past it.
func TestOneHugeMatchIsCut(t *testing.T) {
	files := manyFiles(1, 1, 2000) // one function of ~140 KB
	files["z.go"] = "package p\n\nfunc Z() {\n\tz()\n}\n"
	h := start(t, files, harnessOptions{})
	r := h.ok("ast_grep", map[string]any{"pat": "func $F() { $$$B }", "limit": 0})
	if len(r.text) > MaxReplyBytes || !strings.Contains(r.text, "cut: this entry alone is over 50 KB") || r.nextSkip() != 1 {
		t.Fatalf("%d bytes, nextSkip %d, text ends %q", len(r.text), r.nextSkip(), r.text[max(0, len(r.text)-300):])
	}
	r = h.ok("ast_grep", map[string]any{"pat": "func $F() { $$$B }", "limit": 0, "skip": 1})
	if !strings.Contains(r.text, "func Z()") || r.nextSkip() != -1 {
		t.Errorf("second page: %q", r.text)
	}
}

// TestSearchPagesByFilesUnderTheCap pages a regex search whose files are
// large: pages are whole files, each reply under 50 KB, every file once.
func TestSearchPagesByFilesUnderTheCap(t *testing.T) {
	h := start(t, manyFiles(60, 5, 4), harnessOptions{}) // 20 matching lines a file, ~100 KB
	pages := pageAll(t, h, "search", map[string]any{"pattern": `call\d`, "limit": 0, "context": 0})
	heading := regexp.MustCompile(`(?m)^(?:# |## )(f\d+\.go)$`)
	seen := map[string]int{}
	for _, p := range pages {
		for _, m := range heading.FindAllStringSubmatch(p.text, -1) {
			seen[m[1]]++
		}
	}
	if len(pages) < 2 || len(seen) != 60 {
		t.Errorf("%d pages, %d distinct files; want several pages and 60 files", len(pages), len(seen))
	}
	for f, n := range seen {
		if n != 1 {
			t.Errorf("%s seen %d times", f, n)
		}
	}
}

// TestDumpSyntaxTree shows a pattern's and a file's trees.
func TestDumpSyntaxTree(t *testing.T) {
	h := start(t, map[string]string{"a.go": "package a\n\nfunc A() { b() }\n"}, harnessOptions{})
	r := h.ok("dump_syntax_tree", map[string]any{"code": "b($X)", "language": "go", "format": "pattern"})
	if !strings.Contains(r.text, "MetaVar $X") {
		t.Errorf("pattern view: %q", r.text)
	}
	r = h.ok("dump_syntax_tree", map[string]any{"path": "a.go", "format": "cst"})
	if !strings.Contains(r.text, "function_declaration") || !strings.Contains(r.text, "call_expression") {
		t.Errorf("cst view: %q", r.text)
	}
}

// TestOutlineAndScan runs the outline and a rule with a fix, applied
// through resolve.
func TestOutlineAndScan(t *testing.T) {
	h := start(t, map[string]string{"a.go": "package a\n\nfunc Exported(x int) error { return nil }\n\nfunc hidden() {}\n"}, harnessOptions{})
	r := h.ok("outline", map[string]any{"paths": []string{"a.go"}})
	if !strings.Contains(r.text, "Exported") || !strings.Contains(r.text, "hidden") {
		t.Errorf("outline: %q", r.text)
	}
	rule := "id: no-nil-return\nlanguage: go\nseverity: warning\nmessage: returns nil\nrule:\n  pattern: return nil\nfix: return errNone\n"
	r = h.ok("scan", map[string]any{"rules": rule})
	id, _ := r.summary["id"].(string)
	if !strings.Contains(r.text, "3:30 warning[no-nil-return]: returns nil") || id == "" {
		t.Fatalf("scan: %q %v", r.text, r.summary)
	}
	h.ok("resolve", map[string]any{"id": id, "action": "apply"})
	if got := h.read("a.go"); !strings.Contains(got, "return errNone") {
		t.Errorf("after applying the scan's fix: %q", got)
	}
}
