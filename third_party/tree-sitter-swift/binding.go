// Package tree_sitter_swift is the Swift grammar of
// github.com/alex-pinkus/tree-sitter-swift, whose generated C (parser.c,
// scanner.c, tree_sitter/) and LICENSE are here byte for byte
// (scripts/third-party-tree-sitter.sh --check). The binding is ours: cgo
// compiles parser.c and scanner.c as two translation units, as the grammar's
// other bindings do. The module's Go binding #includes both into its cgo
// preamble, one unit where scanner.c's TOKEN_COUNT redefines parser.c's (a
// gcc warning on every cold build), and where cgo compiles the 20 MB parser
// three times (twice while it reads the preamble's types, once for real)
// instead of once. third_party/README.md has the figures.
package tree_sitter_swift

// #cgo CFLAGS: -std=c11 -fPIC
// typedef struct TSLanguage TSLanguage;
// const TSLanguage *tree_sitter_swift(void);
import "C"

import "unsafe"

// Language returns the tree-sitter Language of Swift, for
// tree_sitter.NewLanguage.
func Language() unsafe.Pointer {
	return unsafe.Pointer(C.tree_sitter_swift())
}
