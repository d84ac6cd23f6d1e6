package syntax

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// smallFile is the i-th of the small files the tests of the room a cache has
// fill it with; all are about the same size.
func smallFile(i int) []byte { return fmt.Appendf(nil, "package p\n\nvar v%d = %d\n", i, i) }

// cacheForFour returns a cache with room for four and a half trees of
// smallFile, and the cost of one.
func cacheForFour(t *testing.T) (*Cache, int64) {
	t.Helper()
	first, err := Parse(context.Background(), goLang, smallFile(0))
	if err != nil {
		t.Fatal(err)
	}
	cost := treeCost(first)
	return NewCache(4*cost + cost/2), cost
}

// TestWarmNeverMakesRoom: Warm fills the cache up to its budget and then
// reports it full, without dropping a tree a query has used.
func TestWarmNeverMakesRoom(t *testing.T) {
	ctx := context.Background()
	c, _ := cacheForFour(t)
	c.StartQuery()
	used, _ := c.Parse(ctx, goLang, smallFile(0)) // a query's tree
	warmed := 0
	for i := 1; i < 10; i++ {
		err := c.Warm(ctx, goLang, smallFile(i))
		if errors.Is(err, ErrCacheFull) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		warmed++
	}
	if warmed != 3 {
		t.Errorf("%d trees warmed; want 3 (the room left beside the query's tree)", warmed)
	}
	parses := c.Parses()
	if again, _ := c.Parse(ctx, goLang, smallFile(0)); again != used || c.Parses() != parses {
		t.Error("warming dropped the tree a query had used")
	}
	if err := c.Warm(ctx, goLang, smallFile(1)); err != nil {
		t.Errorf("warming a cached tree: %v; want nil (nothing to do)", err)
	}
}

// TestSetBudgetWhileParsing: a budget change (each query sets it, and so
// does background parsing) may race with another query's parses; under
// -race this test failed when add read the budget without the lock.
func TestSetBudgetWhileParsing(t *testing.T) {
	ctx := context.Background()
	c := NewCache(1 << 20)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
				c.SetBudget(int64(1<<20 + i%2))
			}
		}
	})
	for i := range 200 {
		if _, err := c.Parse(ctx, goLang, fmt.Appendf(nil, "package p\nvar v = %d\n", i)); err != nil {
			t.Error(err)
		}
	}
	close(done)
	wg.Wait()
}

// TestFill: Fill caches trees while they are likely to fit, dropping none
// (not the tree a query has used), and then reports the cache full having
// parsed nothing; it passes over, unparsed, a cached content and one too
// large to be cached at all.
func TestFill(t *testing.T) {
	ctx := context.Background()
	c, cost := cacheForFour(t)
	var scratch Scratch
	defer scratch.Release()
	c.StartQuery()
	used, _ := c.Parse(ctx, goLang, smallFile(0)) // a query's tree
	filled := 0
	for i := 1; i < 10; i++ {
		parses := c.Parses()
		err := c.Fill(ctx, goLang, smallFile(i), &scratch)
		if errors.Is(err, ErrCacheFull) {
			if c.Parses() != parses {
				t.Error("Fill parsed a file before reporting the cache full")
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		filled++
	}
	if filled != 3 || c.Stats().Trees != 4 {
		t.Errorf("%d trees filled, %d cached; want 3 beside the query's, 4 cached", filled, c.Stats().Trees)
	}
	parses := c.Parses()
	if again, _ := c.Parse(ctx, goLang, smallFile(0)); again != used || c.Parses() != parses {
		t.Error("Fill dropped the tree a query had used")
	}
	huge := fmt.Appendf(nil, "package p\n\nvar s = %q\n", make([]byte, 2*cost))
	if err := c.Fill(ctx, goLang, smallFile(1), &scratch); err != nil || c.Parses() != parses {
		t.Errorf("filling a cached tree: %v, %d parses; want nil and none", err, c.Parses()-parses)
	}
	if small := NewCache(4*cost + cost/2); small.Fill(ctx, goLang, huge, &scratch) != nil || small.Parses() != 0 {
		t.Errorf("filling a tree too large to cache: %d parses; want nil and none (passed over)", small.Parses())
	}
	if err := NewCache(0).Fill(ctx, goLang, smallFile(1), &scratch); !errors.Is(err, ErrCacheFull) {
		t.Errorf("filling a disabled cache: %v; want ErrCacheFull", err)
	}
}
