package workspace

import (
	"math/rand/v2"
	"strings"
	"testing"

	gitignore "github.com/boyter/gocodewalker/go-gitignore"
)

// TestIgnoreFileAgreesWithGoGitignore checks ignoreFile, which looks the
// literal lines up in maps and matches "*.o" and the like by suffix, against go-gitignore matching the same whole
// file, on random files and paths: literal and wildcard lines, negations,
// anchors, directory-only lines, names repeated with other flags, comments,
// escapes, trailing spaces, carriage returns and a trailing backslash
// (which leave the whole file to go-gitignore). Every path is asked as a
// file and as a directory.
func TestIgnoreFileAgreesWithGoGitignore(t *testing.T) {
	const base = "/w/repo"
	names := []string{"a", "b", "a.o", "build", "x-y", "c_d", "v1.2", "out"}
	wild := []string{"*.o", "*.o/", "!*.o", "*a", "*-y", "*.2", "*/a", "/*.o", "**.o", "*.o*", "*", "*/", "b*", "?", "[ab]", "**/a", "a/**", "x-*", "\\#a", "a ", "a\\ ", "#a", "", "  ", "*", "a/*/b", "[!a]*"}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	line := func() string {
		if r.IntN(3) == 0 {
			return pick(wild)
		}
		p := pick(names)
		if r.IntN(3) == 0 {
			p += "/" + pick(names)
		}
		if r.IntN(3) == 0 {
			p = "/" + p
		}
		if r.IntN(4) == 0 {
			p += "/"
		}
		if r.IntN(4) == 0 {
			p = "!" + p
		}
		return p
	}
	checked, literalFiles, suffixFiles := 0, 0, 0
	for round := 0; round < 3000; round++ {
		lines := make([]string, 1+r.IntN(12))
		for i := range lines {
			lines[i] = line()
		}
		text := strings.Join(lines, "\n")
		switch r.IntN(10) {
		case 0:
			text = strings.ReplaceAll(text, "\n", "\r\n")
		case 1:
			text += "\\"
		case 2:
			text += "\n"
		}
		ours := newIgnoreFile([]byte(text), base)
		if ours.names != nil || ours.paths != nil {
			literalFiles++
		}
		if ours.suffixes != nil {
			suffixFiles++
		}
		theirs := gitignore.New(strings.NewReader(text), base, func(gitignore.Error) bool { return true })
		for p := 0; p < 20; p++ {
			path := pick(names)
			for d := r.IntN(3); d > 0; d-- {
				path += "/" + pick(names)
			}
			for _, isDir := range []bool{false, true} {
				matched, ignore := ours.match(base+"/"+path, isDir)
				m := theirs.Absolute(base+"/"+path, isDir)
				if matched != (m != nil) || matched && ignore != m.Ignore() {
					want := "no match"
					if m != nil {
						want = "a match at line " + m.Position().String() + ", ignore " + map[bool]string{true: "true", false: "false"}[m.Ignore()]
					}
					t.Fatalf("file %q, path %q (dir %v): matched %v ignore %v; go-gitignore: %s", text, path, isDir, matched, ignore, want)
				}
				checked++
			}
		}
	}
	if literalFiles < 1000 || suffixFiles < 300 {
		t.Fatalf("of 3000 files only %d had literal lines and %d suffix lines: the test does not exercise them", literalFiles, suffixFiles)
	}
	t.Logf("%d paths agree; %d files with literal lines, %d with suffix lines", checked, literalFiles, suffixFiles)
}
