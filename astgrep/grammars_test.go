package astgrep

import (
	golang "github.com/tree-sitter/tree-sitter-go/bindings/go"
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/structls/structls/lang"
)

// The tests search Go, JavaScript and Python files; a workspace's files in
// other languages are not searched (their grammars are not linked in).
func init() {
	lang.Register("go", golang.Language)
	lang.Register("javascript", javascript.Language)
	lang.Register("python", python.Language)
}
