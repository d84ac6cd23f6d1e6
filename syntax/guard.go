package syntax

import (
	"sync"
	"unsafe"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// An InputGuard refuses a source its grammar cannot parse safely. Some
// grammars' C code aborts the process, or writes past a buffer, on inputs
// no real file has (tree-sitter-markdown's block scanner serialises its
// open blocks into tree-sitter's 1,024-byte state buffer and fails an
// assertion beyond 254 of them). No input may take the server down, so
// such a grammar registers a guard, and every parse of that grammar —
// whole, by subtrees, incremental — runs it first; its error is the
// parse's, and the file is reported as not parsed.
type InputGuard func(source []byte) error

// guards maps a grammar's TSLanguage pointer to its InputGuard.
var guards sync.Map

// RegisterGuard makes guard check every source parsed with the grammar
// whose tree-sitter language is tsLanguage (what a grammar module's
// Language() returns).
func RegisterGuard(tsLanguage unsafe.Pointer, guard InputGuard) {
	guards.Store(tsLanguage, guard)
}

// CheckInput runs the grammar's guard, if it has one, on source. Code that
// parses with the tree-sitter binding directly (not through this package)
// calls it first.
func CheckInput(lang *sitter.Language, source []byte) error {
	if lang == nil {
		return nil
	}
	if g, ok := guards.Load(unsafe.Pointer(lang.Inner)); ok {
		return g.(InputGuard)(source)
	}
	return nil
}
