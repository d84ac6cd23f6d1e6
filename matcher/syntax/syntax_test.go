package syntax

import (
	"context"
	"testing"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	golang "github.com/tree-sitter/tree-sitter-go/bindings/go"
)

var goLang = sitter.NewLanguage(golang.Language())

// TestFlattenMatchesBinding checks the flat tree node for node against the
// Go binding's own walk (and so the TSTree pointer read in treePointer).
func TestFlattenMatchesBinding(t *testing.T) {
	src := []byte("package p\n\n// c\nfunc f(a int) { if a > 1 { return } }\nvar x = \n")
	tree, err := Parse(context.Background(), goLang, src)
	if err != nil {
		t.Fatal(err)
	}
	p := sitter.NewParser()
	defer p.Close()
	_ = p.SetLanguage(goLang)
	ref := p.Parse(src, nil)
	defer ref.Close()
	var want []sitter.Node
	var fields []string
	var walk func(n *sitter.Node, field string)
	walk = func(n *sitter.Node, field string) {
		want = append(want, *n)
		fields = append(fields, field)
		for i := range n.ChildCount() {
			walk(n.Child(i), n.FieldNameForChild(uint32(i)))
		}
	}
	walk(ref.RootNode(), "")
	if len(want) != len(tree.Nodes) {
		t.Fatalf("%d flat nodes; the binding walks %d", len(tree.Nodes), len(want))
	}
	for i, w := range want {
		n := tree.Nodes[i]
		if uint(n.Start) != w.StartByte() || uint(n.End) != w.EndByte() || tree.Kind(int32(i)) != w.Kind() ||
			n.IsNamed() != w.IsNamed() || n.IsExtra() != w.IsExtra() || n.IsMissing() != w.IsMissing() ||
			int(n.ChildCount) != int(w.ChildCount()) || n.IsError() != w.IsError() ||
			uint(n.StartRow) != w.StartPosition().Row || uint(n.EndCol) != w.EndPosition().Column {
			t.Fatalf("node %d: flat %+v kind %s; binding %s [%d,%d] named %v", i, n, tree.Kind(int32(i)), w.Kind(), w.StartByte(), w.EndByte(), w.IsNamed())
		}
		if got := goLang.FieldNameForId(n.Field); got != fields[i] {
			t.Fatalf("node %d (%s): field %q; the binding says %q", i, w.Kind(), got, fields[i])
		}
	}
	if !tree.HasError() {
		t.Error("the source has a syntax error; HasError says no")
	}
	if unsafe.Sizeof(Node{}) != 48 {
		t.Errorf("Node is %d bytes; flat_node is 48", unsafe.Sizeof(Node{}))
	}
}

func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := make([]byte, 0, 1<<20)
	for len(src) < 1<<20 {
		src = append(src, "func f() { x := 1; y := x + 2 }\n"...)
	}
	src = append([]byte("package p\n"), src...)
	if _, err := Parse(ctx, goLang, src); err != ErrCancelled {
		t.Fatalf("Parse on a cancelled context = %v; want ErrCancelled", err)
	}
	if _, err := Parse(context.Background(), goLang, src); err != nil {
		t.Fatalf("the pooled parser is unusable after a cancelled parse: %v", err)
	}
}
