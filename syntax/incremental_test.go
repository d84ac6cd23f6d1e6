package syntax

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// CheckIncremental exposes the property to the external tests, which have
// the other languages' grammars (TestIncrementalReparseLanguages).
var CheckIncremental = checkIncremental

// incrementalSeed is the text the random edits start from: real Go, with
// comments, strings and nesting for the edits to break and mend.
func incrementalSeed(t testing.TB) []byte {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "strings", "replace.go"))
	if err != nil {
		t.Skipf("the Go standard library source is not here: %v", err)
	}
	return src
}

// snippets are what the random edits insert: tokens that open and close
// blocks, strings and comments, so the text is often broken (error
// recovery must agree too) and often mended again.
var snippets = []string{"", "x", " ", "\n", "{", "}", "(", ")", "\"", "`", "/*", "*/", "//", "if a {", "return", ":=", "func f() {\n}\n", "ü", "\t", "0x1F", ";"}

// randomEdit replaces a random short range of text by a random snippet.
func randomEdit(r *rand.Rand, text []byte) []byte {
	start := r.IntN(len(text) + 1)
	end := min(len(text), start+r.IntN(12))
	switch r.IntN(8) {
	case 0, 1:
		end = start // a pure insertion, as most keystrokes are
	case 2:
		end = min(len(text), start+r.IntN(400)) // a cut across lines
	}
	out := slices.Concat(text[:start], []byte(snippets[r.IntN(len(snippets))]), text[end:])
	return out
}

// checkIncremental applies steps random edits to seed — each a new edit or,
// one time in three, the undo of the last one, so the text is broken and
// mended again — each time reparsing the open document incrementally
// through the cache, and fails when the tree differs in any node from a
// parse from nothing.
func checkIncremental(t testing.TB, lang *sitter.Language, seed []byte, rngSeed uint64, steps int) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(rngSeed, 1))
	c := NewCache(1 << 30)
	defer c.CloseDocument("file:///doc")
	history := [][]byte{seed}
	for step := range steps {
		text := history[len(history)-1]
		c.SetDocument("file:///doc", lang, text)
		c.StartQuery()
		got, err := c.Parse(ctx, lang, text)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Parse(ctx, lang, text)
		if err != nil {
			t.Fatal(err)
		}
		if diff := firstNodeDiff(got, want); diff != "" {
			t.Fatalf("seed %d, step %d (%d bytes, syntax error %v): the incremental tree differs from a full parse: %s",
				rngSeed, step, len(text), want.HasError(), diff)
		}
		if len(history) > 1 && r.IntN(3) == 0 {
			history = history[:len(history)-1]
		} else {
			history = append(history, randomEdit(r, text))
		}
	}
}

// firstNodeDiff describes the first difference between two flat trees, or
// returns "" when they are the same.
func firstNodeDiff(got, want *Tree) string {
	if got.HasError() != want.HasError() {
		return fmt.Sprintf("HasError %v, want %v", got.HasError(), want.HasError())
	}
	for i := range min(len(got.Nodes), len(want.Nodes)) {
		if got.Nodes[i] != want.Nodes[i] {
			return fmt.Sprintf("node %d (%s): %+v, want %+v (%s)", i, got.Kind(int32(i)), got.Nodes[i], want.Nodes[i], want.Kind(int32(i)))
		}
	}
	if len(got.Nodes) != len(want.Nodes) {
		return fmt.Sprintf("%d nodes, want %d", len(got.Nodes), len(want.Nodes))
	}
	return ""
}

// TestIncrementalReparseMatchesFullParse is the property: whatever the
// edits, the incremental tree is exactly the tree a full parse gives.
func TestIncrementalReparseMatchesFullParse(t *testing.T) {
	seed := incrementalSeed(t)
	for rngSeed := range uint64(4) {
		checkIncremental(t, goLang, seed, rngSeed, 60)
	}
}

// TestIncrementalReparseReusesTheTree: edits that keep the text free of
// syntax errors (an identifier typed into, a line added) are all reparsed
// from the previous tree, and give the full parse's tree.
func TestIncrementalReparseReusesTheTree(t *testing.T) {
	ctx := context.Background()
	text := bigGo()
	c := NewCache(1 << 30)
	defer c.CloseDocument("file:///big.go")
	before := IncrementalReparses()
	at := bytes.Index(text, []byte("func f600(")) + len("func f")
	for i := range 20 {
		if i%5 == 4 {
			text = slices.Concat(text[:at-len("func f")], []byte("var _ = 1\n"), text[at-len("func f"):])
			at += len("var _ = 1\n")
		} else {
			text = slices.Concat(text[:at], []byte("x"), text[at:])
		}
		c.SetDocument("file:///big.go", goLang, text)
		got, err := c.Parse(ctx, goLang, text)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Parse(ctx, goLang, text)
		if diff := firstNodeDiff(got, want); diff != "" || want.HasError() {
			t.Fatalf("edit %d: %s (syntax error %v)", i, diff, want.HasError())
		}
	}
	if n := IncrementalReparses() - before; n != 19 {
		t.Errorf("%d of the 20 versions after the first were reparsed from the previous tree; want 19 (all but the first parse)", n)
	}
}

// FuzzIncrementalReparse runs the property from fuzzed random seeds.
func FuzzIncrementalReparse(f *testing.F) {
	seed := incrementalSeed(f)
	f.Add(uint64(100))
	f.Fuzz(func(t *testing.T, rngSeed uint64) {
		checkIncremental(t, goLang, seed, rngSeed, 20)
	})
}

// TestIncrementalKeepsNoStaleTree: after a change, the cache never returns
// the previous version's tree, and a closed document's tree is freed.
func TestIncrementalKeepsNoStaleTree(t *testing.T) {
	ctx := context.Background()
	c := NewCache(1 << 30)
	v1 := []byte("package p\n\nfunc f() { a() }\n")
	v2 := []byte("package p\n\nfunc f() { b() }\n")
	c.SetDocument("file:///a.go", goLang, v1)
	t1, err := c.Parse(ctx, goLang, v1)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDocument("file:///a.go", goLang, v2)
	t2, err := c.Parse(ctx, goLang, v2)
	if err != nil {
		t.Fatal(err)
	}
	if string(t2.Source) != string(v2) || string(t1.Source) != string(v1) {
		t.Fatalf("trees hold %q and %q", t1.Source, t2.Source)
	}
	if c.KeptTrees() != 1 {
		t.Fatalf("%d kept trees, want 1", c.KeptTrees())
	}
	c.CloseDocument("file:///a.go")
	if c.KeptTrees() != 0 {
		t.Fatalf("%d kept trees after close, want 0", c.KeptTrees())
	}
	// The closed document's text is still parsed (from nothing) and cached.
	v3 := []byte("package p\n")
	if t3, err := c.Parse(ctx, goLang, v3); err != nil || string(t3.Source) != string(v3) {
		t.Fatalf("after close: %v", err)
	}
}

// bigGo is a 10,000-line Go file of small functions.
func bigGo() []byte {
	var b []byte
	b = append(b, "package big\n\n"...)
	for i := 0; len(b) == 0 || bytes.Count(b, []byte{'\n'}) < 10000; i++ {
		b = fmt.Appendf(b, "func f%d(a []int) (int, error) {\n\tx, err := g(a[%d:])\n\tif err != nil {\n\t\treturn 0, err\n\t}\n\treturn x + %d, nil\n}\n\n", i, i%7, i)
	}
	return b
}

// BenchmarkKeystroke compares a keystroke's incremental reparse of a
// 10,000-line file (through the cache, as a query after didChange does)
// with a parse from nothing.
func BenchmarkKeystroke(b *testing.B) {
	ctx := context.Background()
	src := bigGo()
	mid := bytes.Index(src, []byte("func f600("))
	b.Run("incremental", func(b *testing.B) {
		c := NewCache(1 << 30)
		text := src
		for b.Loop() {
			text = slices.Concat(text[:mid+1], []byte("x"), text[mid+1:])
			c.SetDocument("file:///big.go", goLang, text)
			if _, err := c.Parse(ctx, goLang, text); err != nil {
				b.Fatal(err)
			}
		}
		c.CloseDocument("file:///big.go")
	})
	b.Run("full", func(b *testing.B) {
		text := src
		for b.Loop() {
			text = slices.Concat(text[:mid+1], []byte("x"), text[mid+1:])
			if _, err := Parse(ctx, goLang, text); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestKeptTreesAreBounded: with more documents open than maxKeptTrees, only
// the trees of those parsed last are kept, and a document whose tree was
// freed is still parsed right.
func TestKeptTreesAreBounded(t *testing.T) {
	ctx := context.Background()
	c := NewCache(1 << 30)
	text := func(i int) []byte { return fmt.Appendf(nil, "package p\n\nvar v = %d\n", i) }
	for i := range maxKeptTrees + 5 {
		uri := fmt.Sprintf("file:///%d.go", i)
		c.SetDocument(uri, goLang, text(i))
		if _, err := c.Parse(ctx, goLang, text(i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.KeptTrees(); n != maxKeptTrees {
		t.Fatalf("%d kept trees; want %d", n, maxKeptTrees)
	}
	c.SetDocument("file:///0.go", goLang, text(1000)) // its tree was freed: parsed from nothing
	tree, err := c.Parse(ctx, goLang, text(1000))
	if err != nil || string(tree.Source) != string(text(1000)) {
		t.Fatalf("tree of %q, %v", tree.Source, err)
	}
	if n := c.KeptTrees(); n != maxKeptTrees {
		t.Errorf("%d kept trees; want %d", n, maxKeptTrees)
	}
}
