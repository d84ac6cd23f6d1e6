package syntax

import (
	"context"
	"slices"
	"testing"
)

// TestParseInto: ParseInto builds Parse's tree, node for node, in the
// scratch's own slice, which the next call reuses.
func TestParseInto(t *testing.T) {
	ctx := context.Background()
	var scratch Scratch
	for path, src := range goSources(t) {
		got, err := ParseInto(ctx, goLang, src, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Parse(ctx, goLang, src)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Nodes, want.Nodes) || got.HasError() != want.HasError() {
			t.Fatalf("%s: ParseInto gives %d nodes, Parse %d (or the nodes differ)", path, len(got.Nodes), len(want.Nodes))
		}
		if &got.Nodes[0] != &scratch.nodes[0] {
			t.Errorf("%s: the nodes are not in the scratch's slice", path)
		}
	}
}
