package syntax

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// TestWarmNeverMakesRoom: Warm fills the cache up to its budget and then
// reports it full, without dropping a tree a query has used.
func TestWarmNeverMakesRoom(t *testing.T) {
	ctx := context.Background()
	file := func(i int) []byte { return fmt.Appendf(nil, "package p\n\nvar v%d = %d\n", i, i) }
	first, err := Parse(ctx, goLang, file(0))
	if err != nil {
		t.Fatal(err)
	}
	cost := treeCost(first)
	c := NewCache(4*cost + cost/2)
	c.StartQuery()
	used, _ := c.Parse(ctx, goLang, file(0)) // a query's tree
	warmed := 0
	for i := 1; i < 10; i++ {
		err := c.Warm(ctx, goLang, file(i))
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
	if again, _ := c.Parse(ctx, goLang, file(0)); again != used || c.Parses() != parses {
		t.Error("warming dropped the tree a query had used")
	}
	if err := c.Warm(ctx, goLang, file(1)); err != nil {
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
