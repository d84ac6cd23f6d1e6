package workspace

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/internal/workers"
)

// ignoredTree writes a tree of some 400 directories, up to six deep, with
// ignore files at every level: patterns anchored and not, directory
// patterns, negations of what a parent ignored, .ignore beside .gitignore.
// The seed makes it the same tree every run.
func ignoredTree(t *testing.T) string {
	root := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 11))
	write := func(path, content string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rules := []string{"*.log", "gen_*", "/top.txt", "/d1/", "!keep.log", "*.tmp\n!important.tmp", "sub*/x.go", "**/deep.go"}
	dirs := 0
	var fill func(dir string, depth int)
	fill = func(dir string, depth int) {
		dirs++
		for _, name := range []string{"a.go", "b.log", "keep.log", "gen_c.go", "top.txt", "x.go", "deep.go", "v.tmp", "important.tmp"} {
			if rng.IntN(3) > 0 {
				write(filepath.Join(dir, name), "x\n")
			}
		}
		if depth > 0 && rng.IntN(3) == 0 {
			write(filepath.Join(dir, ".gitignore"), rules[rng.IntN(len(rules))]+"\n")
		}
		if rng.IntN(6) == 0 {
			write(filepath.Join(dir, ".ignore"), rules[rng.IntN(len(rules))]+"\n")
		}
		if depth == 6 {
			return
		}
		for _, sub := range []string{"d1", "d2", "sub3"}[:1+rng.IntN(3)] {
			if dirs < 400 {
				fill(filepath.Join(dir, sub), depth+1)
			}
		}
	}
	fill(root, 0)
	return root
}

// folderTargets is a snapshot of the folder root and the target of the
// whole folder.
func folderTargets(t *testing.T, root string) (*Snapshot, []Target) {
	t.Helper()
	snap := folderSnapshot(t, root)
	r, err := snap.ResolvePaths(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	return snap, r.Targets
}

// TestWalkDirsMatchesRipgrep: the parallel walk, on four goroutines, lists
// exactly the files `rg --files` lists on a tree with ignore files at
// every level (ripgrep honours .gitignore outside a repository with
// --no-require-git, and .ignore as structls does).
func TestWalkDirsMatchesRipgrep(t *testing.T) {
	rg := testutil.Ripgrep(t)
	defer workers.SetCount(workers.SetCount(4))
	root := ignoredTree(t)
	out, err := exec.Command(rg, "--files", "--no-require-git", root).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		rel, _ := filepath.Rel(root, line)
		want = append(want, filepath.ToSlash(rel))
	}
	slices.Sort(want)
	if len(want) < 200 {
		t.Fatalf("rg lists %d files; the tree is meant to have hundreds", len(want))
	}
	snap, targets := folderTargets(t, root)
	for round := range 5 { // the goroutines interleave differently each time
		files, err := snap.Walk(context.Background(), targets, WalkOptions{Gitignore: true})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, relPaths(files)); diff != "" {
			t.Fatalf("round %d: files (-rg +structls):\n%s", round, diff)
		}
	}
}

// TestWalkDirsStopsWhenCancelled: a walk whose context ends stops listing,
// returns the context's error, and calls emit no more.
func TestWalkDirsStopsWhenCancelled(t *testing.T) {
	defer workers.SetCount(workers.SetCount(4))
	root := ignoredTree(t)
	snap, targets := folderTargets(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	emitted := 0
	err := snap.WalkFunc(ctx, targets, WalkOptions{Gitignore: true}, func(File) {
		emitted++
		if emitted == 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("WalkFunc after cancel = %v; want context.Canceled", err)
	}
	all, _ := snap.Walk(context.Background(), targets, WalkOptions{Gitignore: true})
	if emitted != 10 || len(all) < 200 {
		t.Errorf("emitted %d files of %d after cancelling at the 10th; want 10", emitted, len(all))
	}
}
