package outline

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// TestGoBodies: the text goBodies skips is exactly the insides of function
// bodies, written here between ⟦ and ⟧, whatever braces strings, runes,
// comments, func types and result types hold around them.
func TestGoBodies(t *testing.T) {
	for _, c := range []string{
		"package p\n\nfunc f() {⟦\n\tg()\n⟧}\n",
		"package p\nfunc (r *T) M(a, b int) (int, error) {⟦ return 0, nil ⟧}\n",
		"package p\nfunc F[T interface{ ~int }](x T) T {⟦ return x ⟧}\n",
		"package p\nfunc f(\n\ta int,\n\tb func(int) int,\n) {⟦ b(a) ⟧}\n",
		"package p\nfunc f() struct{ a int } {⟦ return struct{ a int }{} ⟧}\n",
		"package p\nfunc f() interface{ M() } {⟦ return nil ⟧}\n",
		"package p\nfunc f() {⟦ s := \"}\"; r := '}'; q := `\n}\n`; /* } */ // }\n⟧}\nfunc g() {⟦x⟧}\n",
		"package p\nvar f = func() {⟦ g() ⟧}\nvar m = map[string]int{⟦\"a\": 1⟧}\n",
		"package p\nvar v = f(func(x int) {⟦ g(x) ⟧}, 2)\n",
		"package p\ntype F func(int) int\nvar m = map[string]int{⟦\"a\": 1⟧}\n",
		"package p\ntype T struct {\n\tf func()\n\tg func(int) (int, error)\n}\nvar m = T{⟦f: nil⟧}\n",
		"package p\ntype F func() // {\nvar x = T{}\n",
		"package p\nfunc f()\nvar x = T{}\n",
		"package p\nfunc f() {}\n",
		"package p\nfunc f() { // never closed\n",
		"package p\nfunc ünïcode() {⟦ é() ⟧}\n",
		"package p\nfunc f() /* a\ncomment */ {}\nvar x = T{}\n",
		// Values of top-level var and const specs: every brace pair's inside.
		"package p\nvar (\n\ta = []T{⟦{1}, {2}⟧}\n\tb struct{ x int } = struct{⟦ x int ⟧}{⟦1⟧}\n)\ntype S struct{ f int }\n",
		"package p\nconst c = 1\ntype A = struct{ g int }\nvar x int\ntype B = struct{ h int }\n",
		"package p\nvar f func(); type A = struct{ g int }\nvar v = T{⟦a⟧}; type B = struct{ h int }\n",
		"package p\nvar x = a ==\n\tb\ntype A = struct{ g int }\n",
		"package p\nvar x = 1 /* a\ncomment */ type A = struct{ g int }\n",
		"package p\nvar (\n\tx = 1\n)\ntype A = struct{ g int }\nfunc f() {⟦ var y = T{1} ⟧}\n",
	} {
		src, want := strings.ReplaceAll(strings.ReplaceAll(c, "⟦", ""), "⟧", ""), marked(c)
		var got []string
		skip := goBodies([]byte(src), nil)
		for i := 0; i+1 < len(skip); i += 2 {
			got = append(got, src[skip[i]:skip[i+1]])
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%q: skips %q, want %q", src, got, want)
		}
	}
}

// marked returns the texts of c between ⟦ and ⟧.
func marked(c string) []string {
	var texts []string
	for {
		start := strings.Index(c, "⟦")
		if start < 0 {
			return texts
		}
		end := strings.Index(c, "⟧")
		texts = append(texts, c[start+len("⟦"):end])
		c = c[end+len("⟧"):]
	}
}

// FuzzGoBodies: on any text, the ranges are in order, do not overlap, lie
// within the text, and each is the inside of a pair of braces.
func FuzzGoBodies(f *testing.F) {
	for _, seed := range []string{"package p\nfunc f() { g() }\n", "func f() { '", "func(){`}", "func f() /* {", "}}{{func{"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		skip := goBodies(src, nil)
		if len(skip)%2 != 0 {
			t.Fatalf("%d offsets: not pairs", len(skip))
		}
		prev := uint32(0)
		for i := 0; i < len(skip); i += 2 {
			start, end := skip[i], skip[i+1]
			if start < prev || end <= start || int(end) >= len(src) || src[start-1] != '{' || src[end] != '}' {
				t.Fatalf("range %d-%d (after %d) is not the inside of braces in order", start, end, prev)
			}
			prev = end
		}
	})
}

// FuzzSkippedBodiesChangeNothing: for any text that parses without error as
// Go, the outline of the tree parsed without goBodies' ranges equals the
// whole tree's.
func FuzzSkippedBodiesChangeNothing(f *testing.F) {
	for _, seed := range []string{
		"package p\n\nfunc f() { g() }\n\ntype T struct{ f func() }\n",
		"package p\nvar x = func() int { return 1 }()\nfunc (t T) M() (r struct{ a int }) { return }\n",
		"package p\nfunc F[T interface{ ~int }](x T) T { s := \"}\"; return x }\nconst c = '{'\n",
	} {
		f.Add([]byte(seed))
	}
	l, err := lang.Lookup("go")
	if err != nil {
		f.Fatal(err)
	}
	spec := SpecFor("go")
	var scratch syntax.Scratch
	defer scratch.Release()
	f.Fuzz(func(t *testing.T, src []byte) {
		whole, err := syntax.Parse(context.Background(), l.Grammar(), src)
		if err != nil || whole.HasError() {
			return
		}
		want := Extract(whole, spec)
		skipped, err := syntax.ParsePruned(context.Background(), l.Grammar(), src, spec.opaqueKinds(l.Grammar()), goBodies(src, nil), &scratch)
		if err != nil {
			t.Fatal(err)
		}
		if got := Extract(skipped, spec); !reflect.DeepEqual(got, want) {
			t.Fatalf("the outline without the skipped bodies differs: %+v, want %+v", got, want)
		}
	})
}
