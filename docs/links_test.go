// Package docs holds the manual (the Markdown files of this directory) and
// the test that keeps its links working.
package docs

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// mdLink is an inline Markdown link: [text](target).
var mdLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)

// inlineCode is a code span, whose brackets are not links.
var inlineCode = regexp.MustCompile("`[^`]*`")

// TestLinks: every relative link of the manual and of README.md names a
// file of the repository, and every #anchor a heading of the file it
// points into (GitHub's anchors: lower case, punctuation dropped, spaces
// as hyphens).
func TestLinks(t *testing.T) {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("..", "README.md"))
	anchors := map[string]map[string]bool{} // by cleaned path
	anchorsOf := func(path string) map[string]bool {
		path = filepath.Clean(path)
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		anchors[path] = headingAnchors(string(data))
		return anchors[path]
	}
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range proseLines(string(data)) {
			for _, m := range mdLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				path, anchor, _ := strings.Cut(target, "#")
				resolved := file
				if path != "" {
					resolved = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
					if _, err := os.Stat(resolved); err != nil {
						t.Errorf("%s:%d: the link %s names %s, which does not exist", file, i+1, target, resolved)
						continue
					}
				}
				if anchor == "" || !strings.HasSuffix(resolved, ".md") {
					continue
				}
				if !anchorsOf(resolved)[anchor] {
					t.Errorf("%s:%d: the link %s names #%s, which is no heading of %s", file, i+1, target, anchor, resolved)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found: the test reads nothing")
	}
}

// proseLines returns the lines of a Markdown text with the lines of fenced
// code blocks blanked (kept, so line numbers stay right).
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	inFence := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			lines[i] = ""
			continue
		}
		if inFence {
			lines[i] = ""
		}
	}
	return lines
}

// headingAnchors returns the anchors GitHub gives the headings of a text.
func headingAnchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(text) {
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if level == 0 || level > 6 || !strings.HasPrefix(line[level:], " ") {
			continue
		}
		anchor := slug(line[level+1:])
		if n := seen[anchor]; n > 0 {
			out[anchor+"-"+strconv.Itoa(n)] = true
		} else {
			out[anchor] = true
		}
		seen[anchor]++
	}
	return out
}

// slug is GitHub's anchor of a heading's text.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// outsideDocument matches a citation of a document outside the repository:
// the team's design page and reference notes, and their section numbers.
var outsideDocument = regexp.MustCompile(`(?m)DESIGN\.md|(ast-grep-semantics|ast-grep-rules|seed-tools|lsp-stack|editors-testing|grammars)\.md|\.\./shared|/work/shared|team reference|of the seed tools\)|reference §|(^|[\s("'` + "`" + `])(reference|seeds)/`)

// outsideCheckExempt are the files that spell those citations out to look
// for them.
var outsideCheckExempt = map[string]bool{
	"docs/links_test.go":         true,
	"cmd/structls/setup_test.go": true,
}

// skippedDirs are directories of the tree that hold no text of ours.
var skippedDirs = map[string]bool{".git": true, "third_party": true, "node_modules": true, ".cache": true, ".tools": true,
	"test-results": true, "dist": true}

// textExtensions are the files whose text is checked.
var textExtensions = map[string]bool{".go": true, ".c": true, ".h": true, ".sh": true, ".ts": true, ".mjs": true, ".lua": true,
	".md": true, ".txt": true, ".json": true, ".yml": true, ".yaml": true, ".star": true, ".txtar": true}

// TestNoOutsideDocuments: code comments, scripts and documents cite only
// documents inside the repository (docs/design.md for the architecture),
// so a maintainer finds every reference in the tree.
func TestNoOutsideDocuments(t *testing.T) {
	root := ".."
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skippedDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if !textExtensions[filepath.Ext(path)] || outsideCheckExempt[rel] {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		if !mayCiteOutside(data) {
			return nil
		}
		for _, at := range outsideDocument.FindAllIndex(data, -1) {
			line := 1 + bytes.Count(data[:at[0]], []byte("\n"))
			t.Errorf("%s:%d cites %q, a document outside the repository: cite docs/design.md (or the docs/ page that says it) instead",
				rel, line, strings.TrimSpace(string(data[at[0]:at[1]])))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked: the walk missed the tree", checked)
	}
}

// mayCiteOutside reports whether data holds a word every outsideDocument
// match holds: the regex runs only on those files.
func mayCiteOutside(data []byte) bool {
	for _, w := range []string{".md", "shared", "reference", "seed"} {
		if bytes.Contains(data, []byte(w)) {
			return true
		}
	}
	return false
}
