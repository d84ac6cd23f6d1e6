package syntax

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
	golang "github.com/tree-sitter/tree-sitter-go/bindings/go"
)

var goLang = sitter.NewLanguage(golang.Language())

// TestFlattenMatchesBinding checks the flat tree node for node against the
// Go binding's own parse and walk: kinds, flags, fields, child counts, and
// the points Tree derives from byte offsets against the ones tree-sitter
// stores — on sources with CRLF line ends, a byte order mark, invalid
// UTF-8, no final newline, and real code from the standard library.
func TestFlattenMatchesBinding(t *testing.T) {
	sources := map[string][]byte{
		"syntax error": []byte("package p\n\n// c\nfunc f(a int) { if a > 1 { return } }\nvar x = \n"),
		"crlf":         []byte("package p\r\n\r\nfunc f() {\r\n\treturn\r\n}\r\n"),
		"bom":          []byte("\uFEFFpackage p\n\nvar s = \"é\"\n"),
		"invalid utf8": []byte("package p\n\nvar s = \"\xff\xfe\n\"\n// \xe2\n\xe2\x82 x\n"),
		"no newline":   []byte("package p\nvar x = 1"),
		"empty":        {},
		"lone cr":      []byte("package p\rvar x = 1\r\n\n\n"),
	}
	for path, src := range goSources(t) {
		if len(sources) < 40 {
			sources[filepath.Base(path)] = src
		}
	}
	for name, src := range sources {
		checkAgainstBinding(t, name, src)
	}
	tree, err := Parse(context.Background(), goLang, sources["syntax error"])
	if err != nil {
		t.Fatal(err)
	}
	if !tree.HasError() {
		t.Error("the source has a syntax error; HasError says no")
	}
	if unsafe.Sizeof(Node{}) != 28 {
		t.Errorf("Node is %d bytes; flat_node is 28", unsafe.Sizeof(Node{}))
	}
}

// checkAgainstBinding compares the flat tree of src with the binding's.
func checkAgainstBinding(t *testing.T, name string, src []byte) {
	t.Helper()
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
		t.Fatalf("%s: %d flat nodes; the binding walks %d", name, len(tree.Nodes), len(want))
	}
	for i, w := range want {
		n, at := tree.Nodes[i], int32(i)
		sp, ep := tree.StartPoint(at), tree.EndPoint(at)
		if uint(n.Start) != w.StartByte() || uint(n.End) != w.EndByte() || tree.Kind(at) != w.Kind() ||
			n.IsNamed() != w.IsNamed() || n.IsExtra() != w.IsExtra() || n.IsMissing() != w.IsMissing() ||
			tree.ChildCount(at) != int(w.ChildCount()) || n.IsError() != w.IsError() ||
			uint(sp.Row) != w.StartPosition().Row || uint(sp.Column) != w.StartPosition().Column ||
			uint(ep.Row) != w.EndPosition().Row || uint(ep.Column) != w.EndPosition().Column {
			t.Fatalf("%s: node %d: flat %+v kind %s points %v-%v; binding %s [%d,%d] named %v points %v-%v", name, i, n, tree.Kind(at),
				sp, ep, w.Kind(), w.StartByte(), w.EndByte(), w.IsNamed(), w.StartPosition(), w.EndPosition())
		}
		if got := goLang.FieldNameForId(n.Field); got != fields[i] {
			t.Fatalf("%s: node %d (%s): field %q; the binding says %q", name, i, w.Kind(), got, fields[i])
		}
	}
}

// TestChildCountPastStored: a node whose stored count is saturated (more
// children than 24 bits hold) has its children counted.
func TestChildCountPastStored(t *testing.T) {
	const children = 3
	tree := &Tree{Nodes: []Node{{Parent: -1, FirstChild: 1, NextSibling: -1}}}
	for i := range children {
		next := int32(i + 2)
		if i == children-1 {
			next = -1
		}
		tree.Nodes = append(tree.Nodes, Node{Parent: 0, FirstChild: -1, NextSibling: next})
	}
	tree.Nodes[0].childCount = [3]uint8{0xFF, 0xFF, 0xFF}
	if got := tree.ChildCount(0); got != children {
		t.Errorf("ChildCount of a node with a saturated count = %d; want %d (counted)", got, children)
	}
	tree.Nodes[0].childCount = [3]uint8{3, 0, 0}
	if got := tree.ChildCount(0); got != 3 {
		t.Errorf("ChildCount = %d; want the stored 3", got)
	}
}

func TestParseCancelled(t *testing.T) {
	src := make([]byte, 0, 1<<20)
	for len(src) < 1<<20 {
		src = append(src, "func f() { x := 1; y := x + 2 }\n"...)
	}
	src = append([]byte("package p\n"), src...)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Parse(ctx, goLang, src); err != ErrCancelled {
		t.Fatalf("Parse on a cancelled context = %v; want ErrCancelled", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(time.Millisecond, cancel) // mid-parse: the megabyte takes ~150 ms
	if _, err := Parse(ctx, goLang, src); err != ErrCancelled {
		t.Fatalf("Parse cancelled while parsing = %v; want ErrCancelled", err)
	}
	if _, err := Parse(context.Background(), goLang, src); err != nil {
		t.Fatalf("parsing is broken after a cancelled parse: %v", err)
	}
}

// goSources returns the Go files of a few standard-library packages: real
// code of every shape, with sizes from a few hundred bytes to ~100 KB.
func goSources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, dir := range []string{"go/parser", "go/types", "net/http"} {
		paths, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = b
		}
	}
	if len(out) < 50 {
		t.Fatalf("found %d Go files under GOROOT; the test needs the standard library", len(out))
	}
	return out
}

// TestReusedArenaAgrees parses files one after the other in one scratch, its
// arena rewound and reused from file to file as a search worker's is, and
// each in a fresh scratch: the flat trees must be identical.
func TestReusedArenaAgrees(t *testing.T) {
	ctx := context.Background()
	var reused Scratch
	for path, src := range goSources(t) {
		again, err := parse(ctx, goLang, src, allNodes, &reused)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := parse(ctx, goLang, src, allNodes, new(Scratch))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(again.Nodes, fresh.Nodes) || again.HasError() != fresh.HasError() {
			t.Fatalf("%s: the reused arena gives %d nodes, a fresh one %d (or the nodes differ)", path, len(again.Nodes), len(fresh.Nodes))
		}
	}
}

// TestParseSubtrees checks that the forest ParseSubtrees builds is exactly
// the outermost subtrees of that kind in the whole tree, node for node.
func TestParseSubtrees(t *testing.T) {
	ctx := context.Background()
	var scratch Scratch
	for _, kind := range []string{"if_statement", "call_expression", "go_statement", "comment"} {
		symbol := goLang.IdForNodeKind(kind, true)
		for path, src := range goSources(t) {
			whole, err := Parse(ctx, goLang, src)
			if err != nil {
				t.Fatal(err)
			}
			want := forestOf(whole, symbol)
			forest, err := ParseSubtrees(ctx, goLang, src, symbol, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(forest.Nodes, want) || forest.HasError() != whole.HasError() {
				t.Fatalf("%s, %s: %d nodes in the forest; the whole tree has %d in such subtrees", path, kind, len(forest.Nodes), len(want))
			}
		}
	}
}

// forestOf returns what ParseSubtrees must write for symbol: the outermost
// subtrees of that kind in the whole tree, rebased.
func forestOf(whole *Tree, symbol uint16) []Node {
	var forest []Node
	for i := 0; i < len(whole.Nodes); {
		if whole.Nodes[i].Symbol != symbol {
			i++
			continue
		}
		end := i + 1 // the subtree of i is the nodes up to the first one outside it (not all of them lie within its bytes)
		for end < len(whole.Nodes) && isInside(whole, int32(end), int32(i)) {
			end++
		}
		forest = append(forest, rebase(whole.Nodes[i:end], int32(i), int32(len(forest)))...)
		i = end
	}
	return forest
}

// isInside reports whether node n of t lies in the subtree of node root.
func isInside(t *Tree, n, root int32) bool {
	for ; n >= 0; n = t.Nodes[n].Parent {
		if n == root {
			return true
		}
	}
	return false
}

// rebase copies one subtree of a whole tree as ParseSubtrees writes it: its
// links moved from the root's old index to its index in the forest, the root
// without parent or sibling.
func rebase(nodes []Node, root, at int32) []Node {
	out := slices.Clone(nodes)
	shift := func(i int32) int32 {
		if i < 0 {
			return i
		}
		return i - root + at
	}
	for i := range out {
		out[i].Parent, out[i].FirstChild, out[i].NextSibling = shift(out[i].Parent), shift(out[i].FirstChild), shift(out[i].NextSibling)
	}
	out[0].Parent, out[0].NextSibling = -1, -1
	return out
}

// FuzzArenaParse parses arbitrary text in an arena reused for every input
// (as a search worker does) and in a fresh one: the trees must be
// identical, and the kind-restricted forest must hold exactly the whole
// tree's subtrees of that kind.
func FuzzArenaParse(f *testing.F) {
	for _, seed := range []string{"package p\n\nfunc f() { go func() {}(); if x { return } }\n", "package p\nfunc (", "}}}}{{{{", "\"\\", ""} {
		f.Add([]byte(seed))
	}
	var scratch Scratch
	f.Fuzz(func(t *testing.T, src []byte) {
		ctx := context.Background()
		inArena, err := parse(ctx, goLang, src, allNodes, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		nodes := slices.Clone(inArena.Nodes)
		fresh, err := parse(ctx, goLang, src, allNodes, new(Scratch))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(nodes, fresh.Nodes) || inArena.HasError() != fresh.HasError() {
			t.Fatalf("reused arena: %d nodes; fresh arena: %d (or they differ)", len(nodes), len(fresh.Nodes))
		}
		symbol := goLang.IdForNodeKind("call_expression", true)
		forest, err := ParseSubtrees(ctx, goLang, src, symbol, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		count := 0
		for i := range fresh.Nodes {
			if fresh.Nodes[i].Symbol == symbol {
				count++
			}
		}
		kept := 0
		for i := range forest.Nodes {
			if forest.Nodes[i].Symbol == symbol {
				kept++
			}
		}
		if kept != count {
			t.Fatalf("the forest holds %d call_expression nodes; the whole tree %d", kept, count)
		}
	})
}

// TestParseOutOfMemory: a parse that runs out of memory inside tree-sitter
// (here: over a budget set for the test; in production, malloc failing)
// fails with ErrOutOfMemory for that file instead of aborting the process,
// and the same scratch parses the next file as if nothing had happened.
func TestParseOutOfMemory(t *testing.T) {
	src := []byte("package p\n" + strings.Repeat("func f() { x := []int{1, 2, 3}; y := x[0] + 2 }\n", 20000)) // 1 MB
	var scratch Scratch
	setArenaBudget(8 << 20) // the parse needs several times more
	_, err := parse(context.Background(), goLang, src, allNodes, &scratch)
	setArenaBudget(math.MaxUint64)
	if !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("parse over the memory budget: error %v; want ErrOutOfMemory", err)
	}
	again, err := parse(context.Background(), goLang, src, allNodes, &scratch)
	if err != nil {
		t.Fatalf("the scratch is broken after running out of memory: %v", err)
	}
	fresh, err := parse(context.Background(), goLang, src, allNodes, new(Scratch))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Nodes, fresh.Nodes) {
		t.Errorf("after running out of memory the scratch gives %d nodes; a fresh one %d", len(again.Nodes), len(fresh.Nodes))
	}
}

// TestParsePruned: a pruned tree is the whole tree without the descendants
// of the opaque kinds' nodes, which are leaves marked IsPruned when they had
// children; every other node is as in the whole tree, links renumbered.
func TestParsePruned(t *testing.T) {
	ctx := context.Background()
	var scratch Scratch
	for _, kinds := range [][]string{{"block"}, {"block", "literal_value", "field_declaration_list"}, {"source_file"}, {"no_such_kind"}} {
		opaque := NewKindSet(goLang, kinds...)
		for path, src := range goSources(t) {
			whole, err := Parse(ctx, goLang, src)
			if err != nil {
				t.Fatal(err)
			}
			want := pruned(whole, opaque)
			got, err := ParsePruned(ctx, goLang, src, opaque, nil, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Nodes, want) || got.HasError() != whole.HasError() {
				t.Fatalf("%s, opaque %v: %d nodes pruned; want %d of the whole tree's %d", path, kinds, len(got.Nodes), len(want), len(whole.Nodes))
			}
		}
	}
}

// pruned computes what ParsePruned writes from a whole tree: its nodes
// without any inside an opaque node.
func pruned(whole *Tree, opaque KindSet) []Node {
	index := make([]int32, len(whole.Nodes)) // new index of each kept node, -1 for dropped
	var out []Node
	for i := range whole.Nodes {
		index[i] = -1
		if p := whole.Nodes[i].Parent; p >= 0 && (index[p] < 0 || opaque[whole.Nodes[p].Symbol]) {
			continue
		}
		index[i] = int32(len(out))
		out = append(out, whole.Nodes[i])
	}
	renumber := func(i int32) int32 {
		if i < 0 {
			return i
		}
		return index[i]
	}
	for i := range out {
		n := &out[i]
		if opaque[n.Symbol] && n.FirstChild >= 0 {
			n.childCount, n.Flags = [3]uint8{}, n.Flags|FlagPruned
		}
		n.Parent, n.FirstChild, n.NextSibling = renumber(n.Parent), renumber(n.FirstChild), renumber(n.NextSibling)
	}
	return out
}

// TestArenaKeep: after a file whose parse needs more than its scratch's
// keep, the arena gives it back to the kernel; under a larger keep it holds
// it for the next file. The keep is the scratch's own: a scratch of the
// pool (Parse's, a server's) keeps 4 MiB whatever SetArenaKeep says, any
// other keeps what SetArenaKeep said at its first parse, and Release
// gives everything back at once.
func TestArenaKeep(t *testing.T) {
	src := []byte("package p\n" + strings.Repeat("func f() { x := []int{1, 2, 3}; y := x[0] + 2 }\n", 5000)) // 250 KB: several MB of arena
	defer SetArenaKeep(DefaultArenaKeep)
	const small, large = 4 << 20, 64 << 20
	parsed := func(s *Scratch) *Scratch {
		t.Helper()
		if _, err := ParseSubtrees(context.Background(), goLang, src, 0, s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tc := range []struct {
		name     string
		setKeep  int64 // SetArenaKeep before the scratch's first parse
		scratch  func() *Scratch
		min, max int64 // what the arena may hold after the parse
	}{
		{"made under a small keep", small, func() *Scratch { return new(Scratch) }, 1, small},
		{"made under a large keep", large, func() *Scratch { return new(Scratch) }, small + 1, large},
		{"pooled, under a large keep", large, func() *Scratch { return scratchPool.New().(*Scratch) }, 1, small},
	} {
		SetArenaKeep(tc.setKeep)
		scratch := parsed(tc.scratch())
		SetArenaKeep(DefaultArenaKeep) // later changes do not reach a scratch that has parsed
		if held := parsed(scratch).reservedBytes(); held < tc.min || held > tc.max {
			t.Errorf("%s: the arena holds %d bytes after the parse; want %d to %d", tc.name, held, tc.min, tc.max)
		}
		before := ArenaBytes()
		held := scratch.reservedBytes()
		scratch.Release()
		if scratch.reservedBytes() != 0 || ArenaBytes() > before-held {
			t.Errorf("%s: Release left %d bytes in the arena (the process's arenas: %d before, %d after)", tc.name, scratch.reservedBytes(), before, ArenaBytes())
		}
		if held := parsed(scratch).reservedBytes(); held == 0 {
			t.Errorf("%s: a released scratch parses without an arena", tc.name)
		}
		scratch.Release()
	}
}

// TestParseWith: without a cache that keeps trees, ParseWith writes Parse's
// tree (nothing pruned when opaque is nil) into the scratch's own slice,
// which the next call reuses; with one, it gives the whole cached tree,
// whatever opaque says.
func TestParseWith(t *testing.T) {
	ctx := context.Background()
	var scratch Scratch
	cache := NewCache(1 << 30)
	blocks := NewKindSet(goLang, "block")
	for path, src := range goSources(t) {
		want, err := Parse(ctx, goLang, src)
		if err != nil {
			t.Fatal(err)
		}
		var none *Cache
		got, err := none.ParseWith(ctx, goLang, src, nil, nil, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Nodes, want.Nodes) || got.HasError() != want.HasError() {
			t.Fatalf("%s: ParseWith without a cache gives %d nodes, Parse %d (or the nodes differ)", path, len(got.Nodes), len(want.Nodes))
		}
		if &got.Nodes[0] != &scratch.nodes[0] {
			t.Errorf("%s: the nodes are not in the scratch's slice", path)
		}
		cached, err := cache.ParseWith(ctx, goLang, src, blocks, nil, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := cache.ParseWith(ctx, goLang, src, blocks, nil, &scratch)
		if !slices.Equal(cached.Nodes, want.Nodes) || again != cached {
			t.Errorf("%s: with a cache, ParseWith gives %d nodes (the whole tree has %d), cached: %v", path, len(cached.Nodes), len(want.Nodes), again == cached)
		}
	}
}

// TestHugeNodeSliceNotKept: a scratch reuses its node slice for the next
// file up to as many nodes as its arena keep holds bytes: one that keeps
// 4 MiB (structls astgrep) lets a slice grown for a huge file go, one that
// keeps 64 MiB (the other one-shot commands) reuses it.
func TestHugeNodeSliceNotKept(t *testing.T) {
	huge := []byte("package p\n" + strings.Repeat("func f() { x := []int{1, 2, 3}; y := x[0] + 2 }\n", 5000)) // ~200,000 nodes
	small := []byte("package p\n\nfunc f() { g(1) }\n")
	defer SetArenaKeep(arenaKeep.Load())
	for _, tc := range []struct {
		keep     int64
		wantKept bool
	}{{4 << 20, false}, {64 << 20, true}} {
		SetArenaKeep(tc.keep)
		var scratch Scratch
		tree, err := parse(context.Background(), goLang, huge, allNodes, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		limit := scratch.maxKeptNodes()
		if (len(tree.Nodes) <= limit) != tc.wantKept {
			t.Fatalf("keep %d: the huge file has %d nodes, the scratch keeps %d: the test needs the file on the other side", tc.keep, len(tree.Nodes), limit)
		}
		if _, err := parse(context.Background(), goLang, small, allNodes, &scratch); err != nil {
			t.Fatal(err)
		}
		if kept := cap(scratch.nodes) >= len(tree.Nodes); kept != tc.wantKept {
			t.Errorf("keep %d: after a small file the scratch holds room for %d nodes (the huge file's %d kept: %v, want %v)",
				tc.keep, cap(scratch.nodes), len(tree.Nodes), kept, tc.wantKept)
		}
		scratch.Release()
	}
}

// FuzzDirectWriteMatchesCursor writes the tree of arbitrary text (mostly
// broken: ERROR and MISSING nodes, extras in odd places) by reading
// tree-sitter's subtrees directly and with a cursor: every node must be
// the same, for the whole tree, with blocks left out, and for the forest
// of call_expression.
func FuzzDirectWriteMatchesCursor(f *testing.F) {
	for _, seed := range []string{"package p\n\nfunc f() { go func() {}(); if x { return } }\n", "package p\nfunc (", "}}}}{{{{",
		"package p\nvar x = f(a /* c */, b)(c)[d].e{f: g}\n", "package p\ntype T struct{ a, b int `t`; *U }\n", ""} {
		f.Add([]byte(seed))
	}
	var scratch Scratch
	defer scratch.Release()
	blocks := NewKindSet(goLang, "block")
	call := goLang.IdForNodeKind("call_expression", true)
	f.Fuzz(func(t *testing.T, src []byte) {
		ctx := context.Background()
		for _, filter := range []walkFilter{allNodes, {only: -1, opaque: blocks}, {only: int32(call)}} {
			setCursorWalk(false)
			direct, err := parse(ctx, goLang, src, filter, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			nodes := slices.Clone(direct.Nodes)
			setCursorWalk(true)
			cursor, err := parse(ctx, goLang, src, filter, &scratch)
			setCursorWalk(false)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(nodes, cursor.Nodes) {
				t.Fatalf("filter %+v: the direct walk wrote %d nodes, the cursor %d (or they differ)", filter, len(nodes), len(cursor.Nodes))
			}
		}
		// A tree of its own is written where it is kept, into a slice
		// made as long as tree-sitter counts the tree: the count is exact.
		whole, err := parse(ctx, goLang, src, allNodes, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		nodes := slices.Clone(whole.Nodes)
		owned, err := parseOwned(ctx, goLang, src, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(owned.Nodes, nodes) || cap(owned.Nodes) != len(nodes) {
			t.Fatalf("a tree of its own has %d nodes (room for %d), the scratch's %d (or they differ)", len(owned.Nodes), cap(owned.Nodes), len(nodes))
		}
	})
}

// TestLargeTreeWalkedOnce: a whole tree larger than the slice it is to be
// written into is walked once, into a slice grown to its size first — a
// scratch's fresh one, or a tree of its own (Parse, the cache's) — where
// the walk used to fill the slice, count the rest, and start again.
func TestLargeTreeWalkedOnce(t *testing.T) {
	src := []byte("package p\n" + strings.Repeat("func f() { x := []int{1, 2, 3}; y := x[0] + 2 }\n", 2000)) // ~80,000 nodes
	ctx := context.Background()
	want, err := Parse(ctx, goLang, src)
	if err != nil {
		t.Fatal(err)
	}
	for name, parsed := range map[string]func() (*Tree, error){
		"a fresh scratch": func() (*Tree, error) { return parse(ctx, goLang, src, allNodes, new(Scratch)) },
		"Parse":           func() (*Tree, error) { return Parse(ctx, goLang, src) },
		"a cache's miss":  func() (*Tree, error) { return NewCache(1<<30).ParseIn(ctx, goLang, src, new(Scratch)) },
	} {
		before := walks()
		tree, err := parsed()
		if err != nil {
			t.Fatal(err)
		}
		if n := walks() - before; n != 1 {
			t.Errorf("%s: the tree of %d nodes was walked %d times; want once", name, len(tree.Nodes), n)
		}
		if !slices.Equal(tree.Nodes, want.Nodes) {
			t.Errorf("%s: %d nodes, Parse's %d (or they differ)", name, len(tree.Nodes), len(want.Nodes))
		}
	}
}

// TestParseSkipping: text a parse is told to skip is left out of the tree
// (the body of f becomes an empty block), every other node keeps the
// position it has in the whole tree, and skip ranges that are empty, out
// of order, overlapping or past the end are ignored.
func TestParseSkipping(t *testing.T) {
	ctx := context.Background()
	src := []byte("package p\n\nfunc f() {\n\tx := g(1)\n\t_ = x\n}\n\nfunc h() int { return 2 }\n")
	open := uint32(bytes.IndexByte(src, '{') + 1)
	close := uint32(bytes.Index(src, []byte("\n}")) + 1)
	var scratch Scratch
	defer scratch.Release()
	whole, err := parse(ctx, goLang, src, allNodes, new(Scratch))
	if err != nil {
		t.Fatal(err)
	}
	for _, skip := range [][]uint32{
		{open, close},
		{open, close, 3, 5},                          // out of order: ignored
		{open, close, close - 1, close + 3},          // overlapping: ignored
		{open, open, open, close},                    // empty, then the body
		{open, close, uint32(len(src)), 1 << 31},     // past the end: ignored
		{open, close, uint32(len(src)) - 1, 1 << 31}, // past the end: ignored
	} {
		tree, err := parse(ctx, goLang, src, walkFilter{only: -1, skip: skip}, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		if tree.HasError() {
			t.Errorf("skip %v: the tree has an error", skip)
		}
		var kept []Node // the whole tree's nodes outside the body
		for _, n := range whole.Nodes {
			if n.End <= open || n.Start >= close {
				kept = append(kept, n)
			}
		}
		var got []Node
		for _, n := range tree.Nodes {
			if n.End <= open || n.Start >= close {
				got = append(got, n)
			}
		}
		if len(got) != len(kept) {
			t.Errorf("skip %v: %d nodes outside the body, want %d", skip, len(got), len(kept))
			continue
		}
		for i := range got {
			if got[i].Start != kept[i].Start || got[i].End != kept[i].End || got[i].Symbol != kept[i].Symbol {
				t.Errorf("skip %v: node %d is %s at %d-%d, want %s at %d-%d", skip, i,
					goLang.NodeKindForId(got[i].Symbol), got[i].Start, got[i].End, goLang.NodeKindForId(kept[i].Symbol), kept[i].Start, kept[i].End)
			}
		}
		for i, n := range tree.Nodes {
			if n.Start >= open && n.End <= close && n.End > n.Start {
				t.Errorf("skip %v: node %d (%s, %q) is in the skipped text", skip, i, goLang.NodeKindForId(n.Symbol), src[n.Start:n.End])
			}
		}
	}
}
