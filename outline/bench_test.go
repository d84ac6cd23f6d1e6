package outline

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// BenchmarkOutline10kLines extracts and maps the outline of a 10,000-line
// Go file whose tree is already parsed (documentSymbol on a cached tree).
func BenchmarkOutline10kLines(b *testing.B) {
	var src strings.Builder
	src.WriteString("package bench\n\n")
	for i := 0; strings.Count(src.String(), "\n") < 10_000; i++ {
		fmt.Fprintf(&src, "type T%d struct {\n\tA int\n\tb string\n}\n\nfunc (t *T%d) M() int {\n\treturn t.A\n}\n\nconst C%d = %d\n\nfunc F%d(x int) int {\n\treturn -x\n}\n\n", i, i, i, i, i)
	}
	content := []byte(src.String())
	l, _ := lang.Lookup("go")
	cache := syntax.NewCache(1 << 30)
	if _, err := ExtractSource(context.Background(), l, content, cache); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		entries, err := ExtractSource(context.Background(), l, content, cache)
		if err != nil {
			b.Fatal(err)
		}
		_ = Items(entries, workspace.NewMapper(content), workspace.UTF16)
	}
}
