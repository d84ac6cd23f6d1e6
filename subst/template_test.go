package subst

import (
	"strings"
	"testing"
	"time"
)

// span finds the n-th (0-based) occurrence of sub in src.
func span(t *testing.T, src, sub string, n int) Span {
	t.Helper()
	off := 0
	for i := 0; ; i++ {
		j := strings.Index(src[off:], sub)
		if j < 0 {
			t.Fatalf("%q does not occur %d times in %q", sub, n+1, src)
		}
		if i == n {
			return Span{off + j, off + j + len(sub)}
		}
		off += j + 1
	}
}

// TestTemplateLexing checks which "$" sequences are metavariables; the
// expected texts are ast-grep 0.51.1's output for `run -p 'f($A)' -r R` on
// `f(x)` (A bound to x, nothing else bound).
func TestTemplateLexing(t *testing.T) {
	cases := []struct{ template, want string }{
		{"$A", "x"},
		{"$$A", "x"},
		{"$$$A", ""}, // A is a single capture: the multi lookup finds nothing
		{"$1", "$1"},
		{"$A1", ""},
		{"$1A", "$1A"},
		{"$_", ""},
		{"$_1", ""},
		{"$$$", "$$$"},
		{"$$$$A", "$"},
		{"$$$$$A", "$$"},
		{"$$A$A", "xx"},
		{"$A$", "x$"},
		{"$a", "$a"},
		{"$AB_C", ""},
		{"x$", "x$"},
		{"$$$_", ""},
		{"$$$1", "$$$1"},
		{"", ""},
		{"g($A, $A)", "g(x, x)"},
		{"µ$Aé", "µxé"},
	}
	src := "f(x)"
	for _, c := range cases {
		b := Bindings{Single: map[string]Span{"A": span(t, src, "x", 0)}}
		got, err := ParseTemplate(c.template).Expand(NewSource([]byte(src)), Span{0, len(src)}, b)
		if err != nil || string(got) != c.want {
			t.Errorf("template %q: got %q (%v), want %q", c.template, got, err, c.want)
		}
	}
}

// TestExpand covers multi captures and the re-indentation algorithm. The
// cases marked ast-grep are its 0.51.1 output; the others are where
// structls deliberately differs (docs/ast-grep-differences.md).
func TestExpand(t *testing.T) {
	type capture struct {
		text  string
		nth   int
		multi bool
		name  string
	}
	cases := []struct {
		name     string
		src      string
		node     string // the matched node's text (first occurrence)
		captures []capture
		template string
		want     string
	}{
		{
			name: "ast-grep: multi capture keeps the text between nodes",
			src:  "f(x,  y /*c*/, z)", node: "f(x,  y /*c*/, z)",
			captures: []capture{{text: "x,  y /*c*/, z", multi: true, name: "A"}},
			template: "g($$$A)", want: "g(x,  y /*c*/, z)",
		},
		{
			name: "ast-grep: the reference's worked example",
			src:  "if (true) {\n  a(\n    1\n      + 2\n      + 3\n  )\n}", node: "a(\n    1\n      + 2\n      + 3\n  )",
			captures: []capture{{text: "1\n      + 2\n      + 3", name: "B"}},
			template: "c(\n  $B\n)", want: "c(\n    1\n      + 2\n      + 3\n  )",
		},
		{
			name: "ast-grep: de-indent a Python body to the match's indent",
			src:  "def f():\n    if DEBUG:\n        a = 1\n        b = 2\n    c = 3\n", node: "if DEBUG:\n        a = 1\n        b = 2",
			captures: []capture{{text: "a = 1\n        b = 2", multi: true, name: "B"}},
			template: "$$$B", want: "a = 1\n    b = 2",
		},
		{
			name: "ast-grep: a template line break followed by more code is indented",
			src:  "function f() {\n    foo();\n}\n", node: "foo()",
			template: "bar()\n", want: "bar()\n    ",
		},
		{
			name: "ast-grep: a de-indent leaves lines with too few spaces alone",
			src:  "  x = [\n 1,\n      2]", node: "[\n 1,\n      2]",
			captures: []capture{{text: "[\n 1,\n      2]", name: "A"}},
			template: "$A", want: "[\n   1,\n      2]",
		},
		{
			name: "better: a blank line in a capture gets no indentation",
			src:  "def f():\n    if DEBUG:\n        a = 1\n\n        b = 2\n", node: "if DEBUG:\n        a = 1\n\n        b = 2",
			captures: []capture{{text: "a = 1\n\n        b = 2", multi: true, name: "B"}},
			template: "$$$B", want: "a = 1\n\n    b = 2",
		},
		{
			name: "better: a blank template line gets no indentation",
			src:  "class A {\n    m() {\n        foo();\n    }\n}", node: "foo()",
			template: "a();\n\nb()", want: "a();\n\n        b()",
		},
		{
			name: "better: a template ending in a line break at the end of a line adds no trailing spaces",
			src:  "    foo()\n", node: "foo()",
			template: "bar()\n", want: "bar()\n",
		},
		{
			name: "better: tab-indented lines are re-indented with tabs",
			src:  "func f() {\n\tif x {\n\t\tg(a,\n\t\t\tb)\n\t}\n}", node: "g(a,\n\t\t\tb)",
			captures: []capture{{text: "a,\n\t\t\tb", multi: true, name: "A"}},
			template: "h(\n\t$$$A,\n)", want: "h(\n\t\t\ta,\n\t\t\t\tb,\n\t\t)",
		},
		{
			name: "better: a space-indented template under tabs keeps the capture's own structure",
			src:  "\tg(a,\n\t\tb)", node: "g(a,\n\t\tb)",
			captures: []capture{{text: "a,\n\t\tb", multi: true, name: "A"}},
			template: "h(\n  $$$A)", want: "h(\n\t  a,\n\t  \tb)",
		},
		{
			name: "better: CRLF file: the template's line breaks become CRLF",
			src:  "function f() {\r\n  x = foo([\r\n    1,\r\n    2]);\r\n}\r\n", node: "foo([\r\n    1,\r\n    2])",
			captures: []capture{{text: "[\r\n    1,\r\n    2]", name: "A"}},
			template: "bar(\n  $A\n)", want: "bar(\r\n    [\r\n      1,\r\n      2]\r\n  )",
		},
		{
			name: "better: an indent deeper than 512 bytes back is still found",
			src:  "  x = " + strings.Repeat("a", 600) + " + foo()", node: "foo()",
			template: "bar(\n1)", want: "bar(\n  1)",
		},
		{
			name: "an explicit CRLF in the template is kept as it is",
			src:  "a\r\nfoo()\r\n", node: "foo()",
			template: "x\r\ny\nz", want: "x\r\ny\r\nz",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := Bindings{Single: map[string]Span{}, Multi: map[string]Span{}}
			for _, cp := range c.captures {
				if cp.multi {
					b.Multi[cp.name] = span(t, c.src, cp.text, cp.nth)
				} else {
					b.Single[cp.name] = span(t, c.src, cp.text, cp.nth)
				}
			}
			got, err := ParseTemplate(c.template).Expand(NewSource([]byte(c.src)), span(t, c.src, c.node, 0), b)
			if err != nil || string(got) != c.want {
				t.Errorf("got  %q (%v)\nwant %q", got, err, c.want)
			}
		})
	}
}

// TestLongLinesLinear: the indentation of a metavariable's line is found in
// time that does not grow with the line's length, in the template (a
// template of 400,000 "$A" on one line took minutes to parse) and in the
// source (every expansion near the end of a 4 MB minified line scanned back
// to its start). The deadline only detects the hang: both take milliseconds.
func TestLongLinesLinear(t *testing.T) {
	finishes := func(name string, work func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { work(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: still running after 20 s: quadratic in the line's length", name)
		}
	}
	finishes("parsing a long template line", func() {
		if n := len(ParseTemplate(strings.Repeat("$A", 400_000)).parts); n != 400_000 {
			t.Errorf("%d parts, want 400000", n)
		}
	})
	line := "var x = " + strings.Repeat(`f("a") + `, 450_000) + "0\n" // about 4 MB
	src := NewSource([]byte(line))
	template := ParseTemplate("g(\n$A)")
	finishes("expanding matches at the end of a long line", func() {
		for i := range 50_000 {
			off := len(line) - len("0\n") - 9*(i+1) // the i-th f("a") from the end
			out, err := template.Expand(src, Span{off, off + 6}, Bindings{Single: map[string]Span{"A": {off + 2, off + 5}}})
			if err != nil || string(out) != "g(\n\"a\")" {
				t.Errorf("expansion %d at %d: %q, %v", i, off, out, err)
				return
			}
		}
	})
}
