package syntax

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"testing"
)

// TestCacheSurvivesScans runs the same scan of six files three times
// through a cache with room for four trees. Plain LRU would miss on every
// file every time (each miss drops the tree the scan needs next); the cache
// keeps the first four and serves them from the second scan on.
func TestCacheSurvivesScans(t *testing.T) {
	ctx := context.Background()
	var files [][]byte
	for i := range 6 {
		files = append(files, fmt.Appendf(nil, "package p\n\nvar v%d = %d\n", i, i))
	}
	first, err := Parse(ctx, goLang, files[0])
	if err != nil {
		t.Fatal(err)
	}
	cost := treeCost(first)
	c := NewCache(4*cost + cost/2)
	seen := map[*Tree]bool{}
	for scan := range 3 {
		c.StartQuery()
		hits := 0
		for _, src := range files {
			tree, err := c.Parse(ctx, goLang, src)
			if err != nil {
				t.Fatal(err)
			}
			if seen[tree] {
				hits++
			}
			seen[tree] = true
		}
		if want := min(scan, 1) * 4; hits != want {
			t.Errorf("scan %d: %d of 6 trees came from the cache; want %d", scan+1, hits, want)
		}
	}
	// A new query may replace what earlier queries left when it needs room.
	c.StartQuery()
	other := []byte("package q\n\nvar w = 0\n")
	tree, _ := c.Parse(ctx, goLang, other)
	if again, _ := c.Parse(ctx, goLang, other); again != tree {
		t.Error("a tree of a new query was not cached although older trees could make room")
	}
}

// TestPaceGC: a cache that paces the collector lowers GOGC as it fills
// (100 × headroom / cached bytes, at least 25) and gives the default back
// as it empties; the percentage follows from the bytes alone.
func TestPaceGC(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: PaceGC leaves the collector to it")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	current := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }

	var p gcPacer
	p.on = true
	for _, c := range []struct {
		cached int64
		want   int
	}{{0, 100}, {100 << 20, 100}, {512 << 20, 50}, {1 << 30, 25}, {4 << 30, 25}, {300 << 20, 85}, {0, 100}} {
		p.update(c.cached)
		if got := current(); got != c.want {
			t.Errorf("%d MiB cached: GOGC %d, want %d", c.cached>>20, got, c.want)
		}
	}

	defer func(h int64) { gcHeadroom = h }(gcHeadroom)
	src := func(i int) []byte { return fmt.Appendf(nil, "package p\n\nfunc f() { g(%d) }\n", i) } // same size, same tree
	tree, err := Parse(context.Background(), goLang, src(0))
	if err != nil {
		t.Fatal(err)
	}
	gcHeadroom = treeCost(tree) // one tree is the headroom: GOGC 100 with one cached, 50 with two
	cache := NewCache(1 << 20)
	cache.PaceGC()
	for i, want := range []int{100, 50} {
		if _, err := cache.Parse(context.Background(), goLang, src(i)); err != nil {
			t.Fatal(err)
		}
		if got := current(); got != want {
			t.Errorf("%d trees cached: GOGC %d, want %d", i+1, got, want)
		}
	}
	cache.SetBudget(0)
	if got := current(); got != 100 {
		t.Errorf("cache emptied: GOGC %d, want 100", got)
	}
}

// TestParseInKeepsNoScratchMemory: a tree ParseIn caches is its own, not
// the scratch's: the scratch's next parse, of another file, leaves it as a
// fresh parse makes it; and the next ParseIn of the same text is a hit.
func TestParseInKeepsNoScratchMemory(t *testing.T) {
	ctx := context.Background()
	a := []byte("package p\n\nfunc f() { g(1, 2); h() }\n")
	b := []byte("package q\n\nvar x = map[string]int{\"a\": 1}\n")
	c := NewCache(1 << 20)
	var scratch Scratch
	defer scratch.Release()
	tree, err := c.ParseIn(ctx, goLang, a, &scratch)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ParseIn(ctx, goLang, b, &scratch); err != nil {
		t.Fatal(err)
	}
	want, err := Parse(ctx, goLang, a)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tree.Nodes, want.Nodes) || string(tree.Source) != string(a) {
		t.Error("the scratch's next parse changed the tree ParseIn cached")
	}
	parses := c.Parses()
	if again, err := c.ParseIn(ctx, goLang, a, &scratch); err != nil || again != tree || c.Parses() != parses {
		t.Errorf("ParseIn of the same text again: %v, the cached tree %v, %d parses; want the cached tree and none", err, again == tree, c.Parses()-parses)
	}
}
