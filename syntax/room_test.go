package syntax

import (
	"context"
	"testing"
)

// TestParseIfRoom: a query's trees are cached whole while they fit beside
// the trees cached already, none of which is pushed out; past that, the
// query gets only the subtrees it needs, uncached, and the cache never
// holds more than its budget.
func TestParseIfRoom(t *testing.T) {
	ctx := context.Background()
	c, cost := cacheForFour(t)
	if err := c.Warm(ctx, goLang, smallFile(0)); err != nil { // the indexer's
		t.Fatal(err)
	}
	c.StartQuery()
	varSpec := goLang.IdForNodeKind("var_spec", true)
	var scratch Scratch
	defer scratch.Release()
	whole := 0
	for i := 1; i < 8; i++ {
		tree, err := c.ParseIfRoom(ctx, goLang, smallFile(i), varSpec, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		if tree.Nodes[0].Parent == -1 && tree.Kind(0) == "source_file" {
			whole++
		} else if tree.Kind(0) != "var_spec" {
			t.Fatalf("file %d: the tree starts with a %s; want the whole tree or the var_spec subtrees", i, tree.Kind(0))
		}
		if st := c.Stats(); st.Bytes > 4*cost+cost/2 {
			t.Fatalf("file %d: the cache holds %d bytes, over its budget of %d", i, st.Bytes, 4*cost+cost/2)
		}
	}
	if whole != 3 || c.Stats().Trees != 4 {
		t.Errorf("%d whole trees, %d cached; want 3 whole beside the indexer's, 4 cached", whole, c.Stats().Trees)
	}
	if c.Parses() != 8 {
		t.Errorf("%d parses; want 8 (the indexer's and the query's 7)", c.Parses())
	}
	for i := range 8 { // the same query again
		if _, err := c.ParseIfRoom(ctx, goLang, smallFile(i), varSpec, &scratch); err != nil {
			t.Fatal(err)
		}
	}
	if c.Parses() != 8+4 {
		t.Errorf("a second pass parsed %d files; want the 4 that did not fit", c.Parses()-8)
	}
}
