package matcher

import (
	"context"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// FuzzCompile compiles arbitrary patterns in three grammars and runs what
// compiles against a small file: nothing may panic or hang.
func FuzzCompile(f *testing.F) {
	for _, seed := range []string{"foo($$$A, $B)", "$$$", "$A", "if err != nil { $$$ }", "def $F($$$):\n  $$$B", "(((", "$$$A $$$B $$$C",
		"µµµ", "$_", "$$_", "`${$A}`", "\x00\xff", "f($A, $A, $$$A, $$$A)"} {
		f.Add(seed, uint8(0))
	}
	code := map[string]string{
		"go":         "package p\nfunc f(a, b int) error { if err := g(a); err != nil { return err }; return nil }\n",
		"javascript": "foo(1, 2); const x = `${a}`; function g(a, b) { return a + b }\n",
		"python":     "def f(x, *a):\n    if x:\n        return g(x)\n    return None\n",
	}
	names := []string{"go", "javascript", "python"}
	f.Fuzz(func(t *testing.T, pattern string, which uint8) {
		l, _ := lang.Lookup(names[int(which)%len(names)])
		for s := range Strictness(len(strictnessNames)) {
			p, err := Compile(context.Background(), l, pattern, Options{Strictness: s})
			if err != nil {
				continue
			}
			tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte(code[l.Name]))
			if err != nil {
				t.Fatal(err)
			}
			p.FindAll(tree, func(int32, *Env) {})
		}
	})
}
