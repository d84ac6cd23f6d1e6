package syntax

import (
	"context"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// ParseInto parses source like Parse, but the tree's nodes live in
// scratch, as ParseSubtrees's do: they are valid until the next call with
// the same scratch. A one-pass scan that is done with each tree before
// parsing the next (structls.scan without a parse cache) so copies no node
// out, and keeps one arena for all its files rather than taking a pooled
// one, dropped at each garbage collection, per file.
func ParseInto(ctx context.Context, lang *sitter.Language, source []byte, scratch *Scratch) (*Tree, error) {
	return parse(ctx, lang, source, allNodes, scratch)
}
