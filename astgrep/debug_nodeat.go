package astgrep

import (
	"context"
	"errors"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// NodeAtQuery is the argument of structls.nodeAt: a document and a
// position in it (in the negotiated encoding); lang overrides the
// language the file name implies.
type NodeAtQuery struct {
	URI      string             `json:"uri"`
	Position workspace.Position `json:"position"`
	Lang     string             `json:"lang,omitempty"`
}

// NodeAtResult is the reply of structls.nodeAt: the nodes from the root of
// the file's tree down to the one under the cursor, so people can see which
// kind to write in a pattern's selector or a rule's kind.
type NodeAtResult struct {
	URI      string        `json:"uri"`
	Path     string        `json:"path"`
	Language string        `json:"language"`
	Nodes    []NodeAtEntry `json:"nodes"` // root first; never empty
	// Omitted counts the nodes left out after the root when the chain is
	// longer than MaxNodeAtChain: the deepest ones are kept.
	Omitted int `json:"omitted,omitempty"`
}

// MaxNodeAtChain caps the nodes of a structls.nodeAt reply: code nested a
// million levels deep (a hostile JSON file, say) would otherwise answer a
// million entries.
const MaxNodeAtChain = 1000

// NodeAtEntry is one node of the chain.
type NodeAtEntry struct {
	Kind      string              `json:"kind"`
	Field     string              `json:"field,omitempty"` // the field the node fills in its parent
	Named     bool                `json:"named"`           // false for anonymous tokens such as "(" or "func"
	Range     workspace.Range     `json:"range"`
	ByteRange workspace.ByteRange `json:"byteRange"`
}

// NodeAt answers structls.nodeAt on the snapshot: the document's text is
// the editor's buffer when it is open, the file on disk otherwise. The
// parse cache of env, when there is one, supplies and keeps the tree.
func NodeAt(ctx context.Context, env engine.Env, q NodeAtQuery) (*NodeAtResult, error) {
	snap, enc, cache := env.Snapshot, env.Encoding, env.Trees.Cache
	if q.URI == "" {
		return nil, invalidf("uri must name the document, e.g. the file:// URI the editor opened")
	}
	f, source, err := readOneFile(ctx, snap, q.URI)
	if err != nil {
		return nil, err
	}
	l, err := languageOf(f, q.Lang)
	if err != nil {
		return nil, err
	}
	mapper := workspace.NewMapper(source)
	offset, err := mapper.PositionOffset(q.Position, enc)
	if err != nil {
		return nil, invalidf("position: %v: give a 0-based line and character", err)
	}
	tree, err := cache.Parse(ctx, l.Grammar(), source)
	if errors.Is(err, syntax.ErrCancelled) {
		return nil, context.Canceled
	}
	if err != nil {
		return nil, err
	}
	res := &NodeAtResult{URI: f.URI(), Path: f.Rel, Language: l.Name}
	chain := chainAt(tree, uint32(offset))
	if len(chain) > MaxNodeAtChain {
		res.Omitted = len(chain) - MaxNodeAtChain
		chain = append(chain[:1], chain[1+res.Omitted:]...)
	}
	for _, i := range chain {
		n := &tree.Nodes[i]
		entry := NodeAtEntry{Kind: tree.Kind(i), Named: n.IsNamed(), ByteRange: workspace.ByteRange{Start: int(n.Start), End: int(n.End)}}
		if n.Field != 0 {
			entry.Field = tree.Lang.FieldNameForId(n.Field)
		}
		if entry.Range, err = mapper.OffsetRange(int(n.Start), int(n.End), enc); err != nil {
			return nil, err
		}
		res.Nodes = append(res.Nodes, entry)
	}
	return res, nil
}

// chainAt returns the nodes from the root down to the deepest one under
// the cursor at offset: at each level the child spanning the character
// after the cursor, or else a child ending right at the cursor (where a
// cursor sits after typing a word).
func chainAt(t *syntax.Tree, offset uint32) []int32 {
	chain := []int32{0}
	for i := int32(0); ; {
		next := int32(-1)
		for c := t.Nodes[i].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			n := &t.Nodes[c]
			if n.Start <= offset && offset < n.End {
				next = c
				break
			}
			if n.Start < offset && offset == n.End {
				next = c // keep looking: a node starting at the cursor wins
			}
		}
		if next < 0 {
			return chain
		}
		chain = append(chain, next)
		i = next
	}
}

// readOneFile reads the one file entry names (workspace.ReadNamed), with
// the errors of a command's argument.
func readOneFile(ctx context.Context, snap *workspace.Snapshot, entry string) (workspace.File, []byte, error) {
	f, source, err := snap.ReadNamed(ctx, entry)
	var readErr *workspace.ReadError
	switch {
	case errors.Is(err, workspace.ErrNotOneFile):
		return workspace.File{}, nil, invalidf("%s is not a single file: name one file", entry)
	case errors.As(err, &readErr):
		return workspace.File{}, nil, invalidf("%s cannot be read: %v", readErr.File.Rel, readErr.Err)
	case err != nil:
		return workspace.File{}, nil, err
	}
	return f, source, nil
}

// languageOf is the language named, or else the one the file's name implies.
func languageOf(f workspace.File, name string) (*lang.Language, error) {
	l := lang.ForPath(f.Rel)
	if name != "" {
		var err error
		if l, err = lang.Lookup(name); err != nil {
			return nil, invalidf("%v", err)
		}
	}
	if l == nil {
		return nil, invalidf("%s: no language is known for this file name: set lang", f.Rel)
	}
	if l.Grammar() == nil {
		return nil, invalidf("the %s grammar is not built into this binary", l.Name)
	}
	return l, nil
}
