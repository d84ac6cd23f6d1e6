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

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
)

// TestIgnoreFilePlainLinesAgreeWithGlobs checks ignoreFile, which looks
// the plain lines up in maps and matches "*.o" by suffix and "dir/**" by
// prefix, against the same file with every line compiled as a glob
// (ignoreLine, compileIgnoreGlob), on random files and paths: literal and
// wildcard lines, negations, anchors, directory-only lines, names
// repeated with other flags, comments, escapes, trailing spaces and
// carriage returns. Every path is asked as a file and as a directory.
// TestIgnoreFilesMatchRipgrep checks the globs themselves.
func TestIgnoreFilePlainLinesAgreeWithGlobs(t *testing.T) {
	const base = "/w/repo"
	names := []string{"a", "b", "a.o", "build", "x-y", "c_d", "v1.2", "out"}
	wild := []string{"*.o", "*.o/", "!*.o", "*a", "*-y", "*.2", "*/a", "**.o", "*.o*", "*", "*/", "b*", "?", "[ab]", "**/a", "x-*", "\\#a", "a ", "a\\ ", "#a", "", "  ", "*", "a/*/b", "[!a]*", "a/**", "build/**", "/b/**"}
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
	checked, literalFiles, suffixFiles, prefixFiles := 0, 0, 0, 0
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
		if ours.prefixes != nil {
			prefixFiles++
		}
		globs := &ignoreFile{base: base}
		all := strings.Split(text, "\n")
		for i := len(all) - 1; i >= 0; i-- {
			if glob, lit, ok := ignoreLine(all[i]); ok {
				if g, ok := compileIgnoreGlob(glob); ok {
					lit.line = i + 1
					globs.globs = append(globs.globs, globPattern{g, lit})
				}
			}
		}
		for p := 0; p < 20; p++ {
			path := pick(names)
			for d := r.IntN(3); d > 0; d-- {
				path += "/" + pick(names)
			}
			for _, isDir := range []bool{false, true} {
				matched, ignore := ours.match(base+"/"+path, isDir)
				wantMatched, wantIgnore := globs.match(base+"/"+path, isDir)
				if matched != wantMatched || ignore != wantIgnore {
					t.Fatalf("file %q, path %q (dir %v): matched %v ignore %v; as globs: matched %v ignore %v", text, path, isDir, matched, ignore, wantMatched, wantIgnore)
				}
				checked++
			}
		}
	}
	if literalFiles < 1000 || suffixFiles < 300 || prefixFiles < 300 {
		t.Fatalf("of 3000 files only %d had literal lines, %d suffix lines and %d prefix lines: the test does not exercise them", literalFiles, suffixFiles, prefixFiles)
	}
	t.Logf("%d paths agree; %d files with literal lines, %d with suffix lines, %d with prefix lines", checked, literalFiles, suffixFiles, prefixFiles)
}

// TestIgnoreGlobTakesLinearTime: patterns a backtracking matcher takes
// minutes on (found by a hostile run: a 15-byte .gitignore line and one
// long name stalled the walk) match in microseconds.
func TestIgnoreGlobTakesLinearTime(t *testing.T) {
	long := strings.Repeat("a", 4000)
	deep := strings.Repeat("d/", 200) + "y"
	for _, tc := range []struct {
		line, path string
		want       bool
	}{
		{"*a*a*a*a*a*a*a*a*a*a*b", long, false},
		{"/*a*a*a*a*a*a*a*a*a*a*b", long, false},
		{"a/**/**/**/**/**/**/**/**/**/**/z", "a/" + deep, false},
		{"**/**/**/**/**/**/**/**/**/**/y", deep, true},
		{"[!x]*[!x]*[!x]*[!x]*[!x]*[!x]*b", long, false},
	} {
		glob, _, _ := ignoreLine(tc.line)
		g, ok := compileIgnoreGlob(glob)
		if !ok {
			t.Fatalf("%q does not compile", tc.line)
		}
		allocs := testing.AllocsPerRun(3, func() {
			if got := g.match(tc.path); got != tc.want {
				t.Errorf("%q on a %d-byte path: %v, want %v", tc.line, len(tc.path), got, tc.want)
			}
		})
		if allocs > 2 {
			t.Errorf("%q: %v allocations a match", tc.line, allocs)
		}
	}
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
		{"hidden files and directories an ignore file re-includes", "-- .ignore --\n!.gitkeep\n!.config/\n-- .gitkeep --\n-- sub/.gitkeep --\n-- .config/app --\n-- .other/x --\n-- .h --\n"},
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
	var literal strings.Builder
	for i := range maxWildcardPatterns + 1 {
		fmt.Fprintf(&literal, "/build-%d/\n", i)
	}
	for _, tc := range []struct {
		name, ignore string
		wantErr      bool
	}{{"wildcards", wildcardLines(maxWildcardPatterns + 1), true}, {"literal names", literal.String(), false}} {
		t.Run(tc.name, func(t *testing.T) {
			root := testutil.WriteTree(t, "-- a.go --\n-- sub/b.go --\n-- build-7/c.go --\n")
			if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(tc.ignore), 0o644); err != nil {
				t.Fatal(err)
			}
			files, allocated, err := walkAllocating(t, root)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), filepath.Join(root, ".gitignore")) || !strings.Contains(err.Error(), "--no-ignore") {
					t.Fatalf("walk: %v (files %v); want an error naming the file and --no-ignore", err, relPaths(files))
				}
			} else if err != nil || !slices.Equal(relPaths(files), []string{"a.go", "sub/b.go"}) {
				t.Fatalf("walk: %v, files %v; want a.go and sub/b.go", err, relPaths(files))
			}
			if allocated > 64<<20 {
				t.Errorf("reading a %d-byte ignore file allocated %d MB", len(tc.ignore), allocated>>20)
			}
		})
	}
}

// TestIgnoreFilesMatchRipgrep compares the files a walk keeps with `rg
// --files --no-require-git`, with and without --hidden (Hidden), on
// random trees whose ignore files
// mix literal and wildcard lines: "*", "?", classes (negated, with "]"
// first, ranges), "**" in every position and runs of stars, escapes,
// negations, anchors, directory-only lines, trailing spaces and tabs,
// carriage returns, comments; names with spaces, brackets and a two-byte
// character. (Braces, invalid UTF-8 and "\]" inside a class are where
// ripgrep departs from git, and structls follows git: not generated.)
func TestIgnoreFilesMatchRipgrep(t *testing.T) {
	rg := testutil.Ripgrep(t)
	home := t.TempDir() // no global excludes file
	names := []string{"a", "b", "ab", "a.o", "build", "é", "x y", "[x]", ".h", "aXb", "a]"}
	pieces := []string{"a", "b", "ab", "*", "?", "[ab]", "[!a]", "[]a]", "[a-c]", "**", "a**b", "***", "\\*", "é", "x y", ".h", "build", "*.o", "a*", "*b", ".*"}
	r := rand.New(rand.NewPCG(3, 4))
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	line := func() string {
		var parts []string
		for n := 1 + r.IntN(3); n > 0; n-- {
			parts = append(parts, pick(pieces))
		}
		l := strings.Join(parts, "/")
		switch r.IntN(8) {
		case 0:
			l = "/" + l
		case 1:
			l += "/"
		case 2:
			l = "!" + l
		case 3:
			l += pick([]string{" ", "\t", "  ", "\\ "})
		case 4:
			l = pick([]string{"# c", "\\#a", "\\!a", "", "!" + l + "/"})
		}
		return l
	}
	differ := 0
	for round := 0; round < 120; round++ {
		var tree strings.Builder
		for n := 3 + r.IntN(10); n > 0; n-- {
			path := pick(names)
			for d := r.IntN(3); d > 0; d-- {
				path += "/" + pick(names)
			}
			fmt.Fprintf(&tree, "-- %s/f --\n-- %s --\n", path, path+"x")
		}
		root := testutil.WriteTree(t, tree.String())
		var ignores []string
		for _, dir := range []string{".", pick(names)} {
			lines := make([]string, 1+r.IntN(6))
			for i := range lines {
				lines[i] = line()
			}
			text := strings.Join(lines, "\n") + "\n"
			if r.IntN(5) == 0 {
				text = strings.ReplaceAll(text, "\n", "\r\n")
			}
			name := pick([]string{".gitignore", ".ignore"})
			if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			ignores = append(ignores, fmt.Sprintf("%s/%s: %q", dir, name, text))
		}
		hidden := round%2 == 0 // --hidden, or hidden files only where an ignore file re-includes them
		args := []string{"--files", "--no-require-git", "--no-config", "--no-messages", "."}
		if hidden {
			args = append(args, "--hidden")
		}
		cmd := exec.Command(rg, args...)
		cmd.Dir, cmd.Env = root, []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home}
		out, _ := cmd.Output()
		want := []string{}
		for l := range strings.Lines(string(out)) {
			want = append(want, strings.TrimPrefix(strings.TrimSuffix(l, "\n"), "./"))
		}
		slices.Sort(want)
		snap, targets := folderTargets(t, root)
		walked, err := snap.Walk(context.Background(), targets, WalkOptions{Gitignore: true, Hidden: hidden})
		if err != nil {
			t.Fatal(err)
		}
		got := append([]string{}, relPaths(walked)...)
		if diff := cmp.Diff(want, got); diff != "" {
			differ++
			t.Errorf("hidden %v, ignore files %s\nfiles (-rg +structls):\n%s", hidden, strings.Join(ignores, "; "), diff)
			if differ == 3 {
				t.FailNow()
			}
		}
	}
}

// TestIgnoreFilesWithTooManyPatternsInAll: ignore files each within the
// bound but with more wildcard patterns in all than one walk reads end it
// with an error that says what to do (twenty nested files of 100,000 took
// 1.2 GB), at a bounded cost.
func TestIgnoreFilesWithTooManyPatternsInAll(t *testing.T) {
	wild := wildcardLines(maxWalkGlobs/3 + 1)
	root := testutil.WriteTree(t, "-- a.go --\n-- d/b.go --\n-- d/e/c.go --\n")
	for _, dir := range []string{".", "d", "d/e"} {
		if err := os.WriteFile(filepath.Join(root, dir, ".gitignore"), []byte(wild), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, allocated, err := walkAllocating(t, root)
	if err == nil || !strings.Contains(err.Error(), "in all") || !strings.Contains(err.Error(), "--no-ignore") {
		t.Fatalf("walk: %v (files %v); want an error saying the patterns are too many in all, and --no-ignore", err, relPaths(files))
	}
	if allocated > 512<<20 {
		t.Errorf("reading three ignore files of %d bytes allocated %d MB", len(wild), allocated>>20)
	}
}

// wildcardLines is an ignore file of n distinct wildcard patterns.
func wildcardLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "p%d*[ab]/**/q%d\n", i, i)
	}
	return b.String()
}

// walkAllocating walks root honouring its ignore files, and returns what
// the walk found and the bytes it allocated.
func walkAllocating(t *testing.T, root string) ([]File, uint64, error) {
	t.Helper()
	snap, targets := folderTargets(t, root)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	files, err := snap.Walk(context.Background(), targets, WalkOptions{Gitignore: true})
	runtime.ReadMemStats(&after)
	return files, after.TotalAlloc - before.TotalAlloc, err
}
