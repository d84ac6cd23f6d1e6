package outline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/lang"
)

// walkRules calls visit on every rule of every table, members included.
func walkRules(visit func(language string, r *Rule)) {
	var rec func(language string, rules []Rule)
	rec = func(language string, rules []Rule) {
		for i := range rules {
			visit(language, &rules[i])
			rec(language, rules[i].Members)
		}
	}
	for _, name := range Languages() {
		rec(name, SpecFor(name).Rules)
	}
}

// TestTablesAreWellFormed: every language of the tables is in the
// catalogue, every symbol type is one the views know, and every test is
// one the extractor understands.
func TestTablesAreWellFormed(t *testing.T) {
	for _, name := range Languages() {
		if _, err := lang.Lookup(name); err != nil {
			t.Errorf("table for %q, which the catalogue lacks", name)
		}
	}
	walkRules(func(language string, r *Rule) {
		if !slices.Contains(SymbolTypes, r.Symbol) {
			t.Errorf("%s: rule %q has symbol type %q, not in SymbolTypes", language, r.Match, r.Symbol)
		}
		if r.c == nil { // compileRules parses every path, test and expression, and panics on a bad one
			t.Errorf("%s: rule %q was not compiled by SpecFor", language, r.Match)
		}
	})
}

// TestExported checks each language's real export rule.
func TestExported(t *testing.T) {
	cases := []struct {
		language, src string
		want          map[string]bool // name → isExported
	}{
		{"go", "package p\nfunc Pub() {}\nfunc priv() {}\nvar X, y int\n", map[string]bool{"Pub": true, "priv": false, "X": true, "y": false}},
		{"python", "def pub(): pass\ndef _priv(): pass\n", map[string]bool{"pub": true, "_priv": false}},
		{"python", "__all__ = ['listed']\ndef listed(): pass\ndef unlisted(): pass\n", map[string]bool{"listed": true, "unlisted": false}},
		{"rust", "pub fn a() {}\nfn b() {}\npub(crate) fn c() {}\n", map[string]bool{"a": true, "b": false, "c": false}},
		{"java", "public class A {}\nclass B {}\n", map[string]bool{"A": true, "B": false}},
		{"typescript", "export function a() {}\nfunction b() {}\nexport const c = 1;\n", map[string]bool{"a": true, "b": false, "c": true}},
		{"c", "int a;\nstatic int b;\nvoid f(void) {}\nstatic void g(void) {}\n", map[string]bool{"a": true, "b": false, "f": true, "g": false}},
		{"kotlin", "fun a() {}\nprivate fun b() {}\ninternal fun c() {}\n", map[string]bool{"a": true, "b": false, "c": false}},
		{"swift", "public func a() {}\nfunc b() {}\nopen class C {}\n", map[string]bool{"a": true, "b": false, "C": true}},
		{"csharp", "public class A {}\nclass B {}\n", map[string]bool{"A": true, "B": false}},
		{"haskell", "module M (f) where\nf = 1\ng = 2\n", map[string]bool{"f": true, "g": false}},
		{"haskell", "module M where\nf = 1\n", map[string]bool{"f": true}},
		{"lua", "local function a() end\nfunction b() end\n", map[string]bool{"a": false, "b": true}},
		{"dart", "void a() {}\nvoid _b() {}\n", map[string]bool{"a": true, "_b": false}},
		{"zig", "pub fn a() void {}\nfn b() void {}\n", map[string]bool{"a": true, "b": false}},
		{"elixir", "defmodule M do\n  def a, do: 1\nend\n", map[string]bool{"M": true}},
		{"erlang", "-module(m).\n-export([a/0]).\na() -> 1.\nb() -> 2.\n", map[string]bool{"a": true, "b": false}},
		{"r", "f <- function() 1\n.g <- function() 2\n", map[string]bool{"f": true, ".g": false}},
		{"clojure", "(defn a [] 1)\n(defn- b [] 2)\n", map[string]bool{"a": true, "b": false}},
	}
	for _, c := range cases {
		got := map[string]bool{}
		for _, it := range outlineOf(t, c.language, []byte(c.src)) {
			got[it.Name] = it.IsExported
		}
		for name, want := range c.want {
			if e, ok := got[name]; !ok || e != want {
				t.Errorf("%s %q: %s isExported=%v (found %v), want %v", c.language, c.src, name, e, ok, want)
			}
		}
	}
}

// TestGoBlankIdentifier: Go's blank identifier declares nothing, so it is
// never an item; names that merely start with an underscore are.
func TestGoBlankIdentifier(t *testing.T) {
	src := "package p\nvar _ = 1\nvar a, _ = 1, 2\nfunc _() {}\ntype _ int\nconst _x = 1\nvar __ = 3\ntype T struct{ _ int; f int }\n"
	var got []string
	for _, it := range outlineOf(t, "go", []byte(src)) {
		got = append(got, it.Name)
		for _, m := range it.Members {
			got = append(got, it.Name+"."+m.Name)
		}
	}
	if want := []string{"a", "_x", "__", "T", "T._", "T.f"}; !slices.Equal(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
}

// TestMemberVisibility checks public members: C++ access labels, Java
// modifiers, TypeScript's private and #names.
func TestMemberVisibility(t *testing.T) {
	cases := []struct {
		language, src string
		want          map[string]bool
	}{
		{"cpp", "class A { int d; public: int p; private: int q; };\nstruct S { int s; };\n", map[string]bool{"d": false, "p": true, "q": false, "s": true}},
		{"java", "class A { public int p; int d; private void q() {} }\n", map[string]bool{"p": true, "d": false, "q": false}},
		{"typescript", "class A { private x = 1; #y = 2; z = 3; protected m() {} }\n", map[string]bool{"x": false, "#y": false, "z": true, "m": false}},
		{"go", "package p\ntype T struct { A int; b int }\n", map[string]bool{"A": true, "b": false}},
	}
	for _, c := range cases {
		got := map[string]bool{}
		for _, it := range outlineOf(t, c.language, []byte(c.src)) {
			for _, m := range it.Members {
				got[m.Name] = m.IsExported
			}
		}
		for name, want := range c.want {
			if e, ok := got[name]; !ok || e != want {
				t.Errorf("%s %q: member %s public=%v (found %v), want %v", c.language, c.src, name, e, ok, want)
			}
		}
	}
}

// TestSignatureIsBounded: a declaration on one huge line (minified code)
// gives a signature of at most maxSignatureBytes, cut on a character.
func TestSignatureIsBounded(t *testing.T) {
	src := "package p\nfunc F(" + strings.Repeat("é int, ", 10_000) + ") {}\n"
	items := outlineOf(t, "go", []byte(src))
	if len(items) != 1 {
		t.Fatalf("%d items, want 1", len(items))
	}
	sig := items[0].Signature
	if len(sig) > maxSignatureBytes+len("…") || !strings.HasSuffix(sig, "…") || !utf8Valid(sig) {
		t.Errorf("signature of %d bytes (valid UTF-8: %v), want at most %d and marked cut", len(sig), utf8Valid(sig), maxSignatureBytes)
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// TestHostileNesting: deeply nested declarators and a huge heading are
// extracted without exhausting the stack or hanging (a generous deadline
// catches a hang; no timing threshold). Not here: 5,000 nested Markdown
// blockquotes, on which tree-sitter-markdown's scanner aborts the process
// (an assertion in ts_parser__external_scanner_serialize) in any engine
// that parses them: a syntax matter, reported.
func TestHostileNesting(t *testing.T) {
	cases := []struct{ language, src string }{
		{"c", "int " + strings.Repeat("*", 50_000) + "p;\n"},
		{"c", "int " + strings.Repeat("(", 20_000) + "x" + strings.Repeat(")", 20_000) + ";\n"},
		{"markdown", strings.Repeat("#", 6) + " " + strings.Repeat("*a ", 20_000) + "\n"},
		{"python", strings.Repeat("if x:\n", 1) + strings.Repeat(" ", 1) + "def f(): pass\n" + strings.Repeat("[", 30_000) + "\n"},
	}
	for _, c := range cases {
		done := make(chan int, 1)
		go func() { done <- len(outlineOf(t, c.language, []byte(c.src))) }()
		select {
		case n := <-done:
			t.Logf("%s: %d items", c.language, n)
		case <-time.After(2 * time.Minute):
			t.Fatalf("%s: extraction did not finish", c.language)
		}
	}
}

// TestEverySampleExtracts runs every table over every checked-in sample
// and every language over every sample (a table must not panic on code
// of another language's shape).
func TestEverySampleExtracts(t *testing.T) {
	var samples []string
	err := filepath.WalkDir("testdata/samples", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			samples = append(samples, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, path := range samples {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		own := lang.ForPath(path)
		if own == nil {
			t.Fatalf("%s: no language", path)
		}
		covered[own.Name] = true
		if n := len(outlineOf(t, own.Name, src)); n == 0 {
			t.Errorf("%s: no items", path)
		}
		for _, other := range Languages() {
			_ = outlineOf(t, other, src)
		}
	}
	for _, name := range Languages() {
		if !covered[name] && name != "objc" && name != "starlark" { // they share C's and Python's tables
			t.Errorf("%s has a table but no sample in testdata/samples", name)
		}
	}
}

// FuzzOneLine holds oneLine to what it stands for: the words joined by
// single spaces, cut as truncate cuts.
func FuzzOneLine(f *testing.F) {
	for _, seed := range []string{"func f(\n\ta int,\n\tb string,\n) error", "  class\tA\r\n  extends B  ", "é\u00a0x y", "", " ", "aaaaaaaaa bbbbbbbbb ccccccccc", "a\u2028b  c"} {
		f.Add(seed, 8)
		f.Add(seed, 512)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = max(1, n%600)
		want := truncate(strings.Join(strings.Fields(s), " "), n)
		if got := oneLine([]byte(s), n); got != want {
			t.Fatalf("oneLine(%q, %d) = %q, want %q", s, n, got, want)
		}
	})
}
