package workspace

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	gitignore "github.com/boyter/gocodewalker/go-gitignore"
	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
)

// TestIgnoreFileAgreesWithGoGitignore checks ignoreFile, which looks the
// literal lines up in maps and matches "*.o" and the like by suffix, against go-gitignore matching the same whole
// file, on random files and paths: literal and wildcard lines, negations,
// anchors, directory-only lines, names repeated with other flags, comments,
// escapes, trailing spaces, carriage returns and a trailing backslash
// (which leave the whole file to go-gitignore). Every path is asked as a
// file and as a directory. Anchored names with wildcards (`/*.o`) and
// "dir/**", where go-gitignore is wrong, are left out:
// TestIgnoreSemanticsMatchRipgrep checks them against ripgrep.
func TestIgnoreFileAgreesWithGoGitignore(t *testing.T) {
	const base = "/w/repo"
	names := []string{"a", "b", "a.o", "build", "x-y", "c_d", "v1.2", "out"}
	wild := []string{"*.o", "*.o/", "!*.o", "*a", "*-y", "*.2", "*/a", "**.o", "*.o*", "*", "*/", "b*", "?", "[ab]", "**/a", "x-*", "\\#a", "a ", "a\\ ", "#a", "", "  ", "*", "a/*/b", "[!a]*"}
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
		ours, err := newIgnoreFile([]byte(text), base)
		if err != nil {
			t.Fatal(err)
		}
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

// TestIgnoreSemanticsMatchRipgrep lists small trees whose ignore files
// use the rules go-gitignore alone got wrong, and compares the files kept
// with `rg --files --no-require-git`: an anchored name with a wildcard
// stops at a slash (`/*.txt` leaves sub/a.txt alone; `/*` then `!/src`,
// the usual way to keep one directory, keeps src's files), "lib/**" is
// what is inside lib, not lib itself, a .ignore wins
// over a deeper .gitignore, and a nested repository or submodule is out of
// its parents' .gitignore's reach.
func TestIgnoreSemanticsMatchRipgrep(t *testing.T) {
	rg := testutil.Ripgrep(t)
	files := "-- lib --\n-- a.txt --\n-- b.go --\n-- sub/a.txt --\n-- sub/deep/a.txt --\n-- sub/b.go --\n-- src/f --\n-- src/keep/x --\n-- src/drop/y --\n-- other/z --\n"
	for _, tc := range []struct{ name, ignores string }{
		{"anchored star suffix", "-- .gitignore --\n/*.txt\n"},
		{"anchored star, one directory kept", "-- .gitignore --\n/*\n!/src\n"},
		{"anchored star, one subdirectory kept", "-- .gitignore --\n/*\n!/src\n/src/*\n!/src/keep\n"},
		{"anchored question mark and class", "-- .gitignore --\n/?.txt\n/[ab].go\n"},
		{"anchored star, directories only", "-- .gitignore --\n/s*/\n"},
		{"anchored star in a subdirectory's file", "-- sub/.gitignore --\n/*.txt\n"},
		{"negated anchored star", "-- .gitignore --\n*.txt\n!/*.txt\n"},
		{".ignore over a deeper .gitignore", "-- .ignore --\n*.txt\n-- sub/.gitignore --\n!a.txt\n"},
		{".gitignore under a deeper .ignore", "-- .gitignore --\n*.go\n-- sub/.ignore --\n!b.go\n"},
		{".ignore and .gitignore in one directory", "-- sub/.gitignore --\n!a.txt\n-- sub/.ignore --\na.txt\n"},
		{"a nested repository stops its parents' .gitignore", "-- .gitignore --\n*.txt\n-- sub/.git/HEAD --\n"},
		{"a submodule (a .git file) stops its parents' .gitignore", "-- .gitignore --\n*.txt\n-- sub/.git --\ngitdir: ../.git/modules/sub\n"},
		{"a nested repository's own .gitignore and exclude", "-- sub/.git/info/exclude --\nb.go\n-- sub/.gitignore --\ndeep/\n"},
		{"a nested repository keeps its parents' .ignore", "-- .ignore --\n*.txt\n-- sub/.git/HEAD --\n"},
		{".gitignore over exclude", "-- .git/info/exclude --\n*.go\n-- .gitignore --\n!b.go\n"},
		{"exclude of the root repository", "-- .git/info/exclude --\n*.txt\n"},
		{"what is inside a directory, not a file of its name", "-- .gitignore --\nlib/**\nsub/**\n"},
		{"inside a directory, but for one kept", "-- .gitignore --\n/src/**\n!/src/keep/\n!src/keep/**\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := testutil.WriteTree(t, files+tc.ignores)
			out, err := exec.Command(rg, "--files", "--no-require-git", root).Output()
			if err != nil && len(out) > 0 {
				t.Fatal(err)
			}
			want := []string{}
			for _, line := range strings.Fields(string(out)) {
				rel, _ := filepath.Rel(root, line)
				want = append(want, filepath.ToSlash(rel))
			}
			slices.Sort(want)
			snap, targets := folderTargets(t, root)
			walked, err := snap.Walk(context.Background(), targets, WalkOptions{Gitignore: true})
			if err != nil {
				t.Fatal(err)
			}
			got := append([]string{}, relPaths(walked)...)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("files (-rg +structls):\n%s", diff)
			}
		})
	}
}

// TestIgnoreFileWithTooManyPatterns: an ignore file with more wildcard
// patterns than structls reads ends the walk with an error that names it
// and says what to do, before go-gitignore is given them (a 50 MB one took
// 2 GB); one as long made of literal names is read, cheaply.
func TestIgnoreFileWithTooManyPatterns(t *testing.T) {
	var wild, literal strings.Builder
	for i := range maxWildcardPatterns + 1 {
		fmt.Fprintf(&wild, "p%d*[ab]/**/q%d\n", i, i)
		fmt.Fprintf(&literal, "/build-%d/\n", i)
	}
	for _, tc := range []struct {
		name, ignore string
		wantErr      bool
	}{{"wildcards", wild.String(), true}, {"literal names", literal.String(), false}} {
		t.Run(tc.name, func(t *testing.T) {
			root := testutil.WriteTree(t, "-- a.go --\n-- sub/b.go --\n-- build-7/c.go --\n")
			if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(tc.ignore), 0o644); err != nil {
				t.Fatal(err)
			}
			snap, targets := folderTargets(t, root)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			files, err := snap.Walk(context.Background(), targets, WalkOptions{Gitignore: true})
			runtime.ReadMemStats(&after)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), filepath.Join(root, ".gitignore")) || !strings.Contains(err.Error(), "--no-ignore") {
					t.Fatalf("walk: %v (files %v); want an error naming the file and --no-ignore", err, relPaths(files))
				}
			} else if err != nil || !slices.Equal(relPaths(files), []string{"a.go", "sub/b.go"}) {
				t.Fatalf("walk: %v, files %v; want a.go and sub/b.go", err, relPaths(files))
			}
			if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 64<<20 {
				t.Errorf("reading a %d-byte ignore file allocated %d MB", len(tc.ignore), allocated>>20)
			}
		})
	}
}
