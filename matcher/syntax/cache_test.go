package syntax

import (
	"context"
	"fmt"
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
