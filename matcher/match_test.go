package matcher

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	golang "github.com/tree-sitter/tree-sitter-go/bindings/go"
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

func init() {
	lang.Register("go", golang.Language)
	lang.Register("javascript", javascript.Language)
	lang.Register("python", python.Language)
}

// find returns "text" of each match, and its bindings as NAME=text.
func find(t *testing.T, language, pattern, code string, opts Options) []string {
	t.Helper()
	l, err := lang.Lookup(language)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(context.Background(), l, pattern, opts)
	if err != nil {
		t.Fatalf("Compile(%q): %v", pattern, err)
	}
	tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte(code))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	p.FindAll(tree, func(n int32, env *Env) {
		s := string(tree.Text(n))
		var binds []string
		for k, v := range env.Single {
			binds = append(binds, k+"="+string(tree.Text(v)))
		}
		for k, vs := range env.Multi {
			var texts []string
			for _, v := range vs {
				texts = append(texts, string(tree.Text(v)))
			}
			binds = append(binds, k+"=["+strings.Join(texts, "|")+"]")
		}
		slices.Sort(binds)
		if len(binds) > 0 {
			s += " {" + strings.Join(binds, " ") + "}"
		}
		out = append(out, s)
	})
	return out
}

func TestMatchCases(t *testing.T) {
	tests := []struct {
		lang, pattern, code string
		strictness          Strictness
		want                []string
	}{
		{"javascript", "foo(bar)", "x = foo(bar); foo(bar);", Smart, []string{"foo(bar)", "foo(bar)"}},
		{"javascript", "foo(bar);", "x = foo(bar); foo(bar);", Smart, []string{"foo(bar);"}},
		{"javascript", "f($$$A, $B, $$$C)", "f(1,2,3)", Smart, []string{"f(1,2,3) {A=[] B=1 C=[2|,|3]}"}},
		{"javascript", "f($$$A, 3, $B)", "f(3,1,3,2)", Smart, nil},
		{"javascript", "foo($$$A, c)", "foo(a, b, c)", Smart, []string{"foo(a, b, c) {A=[a|,|b]}"}},
		{"javascript", "[$$$A, b]", "[a, b]", Smart, []string{"[a, b] {A=[a]}"}},
		{"javascript", "foo(a, $$$)", "foo(a)", Smart, nil},
		{"javascript", "foo(a, $$$)", "foo(a)", Ast, []string{"foo(a)"}},
		{"javascript", "$A($A)", "test(test); foo(bar)", Smart, []string{"test(test) {A=test}"}},
		{"javascript", "foo('$A')", "foo('hello')", Smart, []string{"foo('hello') {A=hello}"}},
		{"javascript", "'a'", `x('a', "a")`, Smart, []string{"'a'"}},
		{"javascript", "'a'", `x('a', "a")`, Ast, []string{"'a'", `"a"`}},
		{"javascript", "$A(bar)", "foo(/* A*/bar)", Cst, nil},
		{"javascript", "$A(bar)", "foo(/* A*/bar)", Relaxed, []string{"foo(/* A*/bar) {A=foo}"}},
		{"javascript", "return $$A", "function f() { return; }", Smart, []string{"return; {A=;}"}},
		{"javascript", "return $A", "function f() { return; }", Smart, nil},
		{"javascript", "$A = $B", "var a = b", Template, []string{"a = b {A=a B=b}"}},
		{"javascript", "foo($$$)", "foo(foo(1))", Smart, []string{"foo(foo(1))", "foo(1)"}},
		{"python", "f($A) == f($A)", "f(x) == f( x )", Smart, []string{"f(x) == f( x ) {A=x}"}},
		{"python", "if $X:\n    a()\n    $$$REST", "if x:\n    a()\n", Smart, nil},
		{"go", "if err != nil { $$$BODY }", "package p\nfunc f() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n", Smart,
			[]string{"if err != nil {\n\t\treturn err\n\t} {BODY=[return err\n]}"}},
		{"go", "$A := $B", "package p\nfunc f() { x := 1; y, z := 2, 3 }", Smart, []string{"x := 1 {A=x B=1}", "y, z := 2, 3 {A=y, z B=2, 3}"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %s %s", tt.lang, tt.strictness, tt.pattern), func(t *testing.T) {
			got := find(t, tt.lang, tt.pattern, tt.code, Options{Strictness: tt.strictness})
			if !slices.Equal(got, tt.want) {
				t.Errorf("pattern %q on %q:\n got %q\nwant %q", tt.pattern, tt.code, got, tt.want)
			}
		})
	}
}

func TestExtractMetaVar(t *testing.T) {
	tests := map[string]*metaVar{
		"$A":      {kind: metaCapture, name: "A", named: true},
		"$A1":     {kind: metaCapture, name: "A1", named: true},
		"$_":      {kind: metaDropped, named: true},
		"$$B":     {kind: metaCapture, name: "B"},
		"$$_":     {kind: metaDropped},
		"$$$":     {kind: metaMultiple},
		"$$$ARGS": {kind: metaMultiCapture, name: "ARGS"},
		"$$$_X":   {kind: metaMultiple},
		"$abc":    nil, "$1": nil, "$": nil, "$$": nil, "$Abc": nil, "$$$args": nil, "$A-B": nil,
	}
	for text, want := range tests {
		got := extractMetaVar(text, '$')
		if (got == nil) != (want == nil) || (got != nil && *got != *want) {
			t.Errorf("extractMetaVar(%q) = %+v; want %+v", text, got, want)
		}
	}
	if got := preprocess("$A = $$$ + $x + $$B + $1 + $$$", 'µ'); got != "µA = µµµ + $x + µµB + $1 + µµµ" {
		t.Errorf("preprocess = %q", got)
	}
}
