package subst

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzExpand expands arbitrary templates over arbitrary sources and spans.
// Whatever the input, Expand must not panic, and re-indentation may only
// move whitespace: with spaces, tabs and "\r" removed, the output is the
// template with each bound metavariable replaced by its captured text, line
// for line. The seed corpus is in testdata/fuzz/FuzzExpand.
func FuzzExpand(f *testing.F) {
	f.Add("bar(\n  $A\n)", "if (x) {\n  a(\n    1\n      + 2\n  )\n}", uint16(13), uint16(30), uint16(19), uint16(17), false)
	f.Add("$$$B", "def f():\n    if DEBUG:\n        a = 1\n\n        b = 2\n", uint16(13), uint16(40), uint16(31), uint16(22), true)
	f.Add("h(\n\t$$$A,\n)", "func f() {\n\tif x {\n\t\tg(a,\n\t\t\tb)\n\t}\n}", uint16(20), uint16(10), uint16(22), uint16(7), true)
	f.Add("bar(\n  $A\n)", "f() {\r\n  x = foo([\r\n    1,\r\n    2]);\r\n}\r\n", uint16(13), uint16(25), uint16(17), uint16(20), false)
	f.Add("$1 $$$ $$$$A $a $_ $A$", "f(x)", uint16(0), uint16(4), uint16(2), uint16(1), false)
	f.Add("", "a()\n", uint16(0), uint16(3), uint16(0), uint16(0), false)
	f.Fuzz(func(t *testing.T, template, source string, nodeStart, nodeLen, capStart, capLen uint16, multi bool) {
		src := []byte(source)
		clip := func(start, length uint16) Span {
			s := min(int(start), len(src))
			return Span{s, min(s+int(length), len(src))}
		}
		node, capture := clip(nodeStart, nodeLen), clip(capStart, capLen)
		b := Bindings{Single: map[string]Span{}, Multi: map[string]Span{}}
		if multi {
			b.Multi["A"], b.Multi["B"] = capture, capture
		} else {
			b.Single["A"], b.Single["B"] = capture, capture
		}
		tmpl := ParseTemplate(template)
		out, err := tmpl.Expand(NewSource(src), node, b)
		if err != nil {
			t.Fatalf("Expand: %v", err) // inputs are far below MaxReplacementText
		}

		var want []byte
		for _, p := range tmpl.parts {
			switch captures := b.Single; {
			case p.name == "":
				want = append(want, p.literal...)
			default:
				if p.multi {
					captures = b.Multi
				}
				if s, ok := captures[p.name]; ok {
					want = append(want, src[s.Start:s.End]...)
				}
			}
		}
		if got, exp := stripWhitespace(out), stripWhitespace(want); !bytes.Equal(got, exp) {
			t.Fatalf("expansion changed more than whitespace:\n got  %q\n want %q (both without spaces, tabs and CR)", out, want)
		}
		if !NewSource(src).CRLF && !strings.Contains(template, "\r") && !bytes.Contains(src, []byte("\r")) && bytes.Contains(out, []byte("\r")) {
			t.Fatalf("a CR appeared in %q, though neither the template nor the LF source has one", out)
		}
	})
}

// stripWhitespace removes spaces, tabs and carriage returns.
func stripWhitespace(b []byte) []byte {
	return bytes.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' {
			return -1
		}
		return r
	}, b)
}
