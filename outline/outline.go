// Package outline extracts what a file declares — functions, types,
// constants, imports, and their members — for the structls.outline command,
// textDocument/documentSymbol and workspace/symbol.
//
// Each language's extractor is data: a table of Rules (lang_*.go) saying
// which syntax nodes are declarations, where their names are, what makes
// them exported and which of their children are members. One walker runs
// every table over the flat syntax trees of package syntax.
package outline

import (
	"github.com/structls/structls/workspace"
)

// Item is one declaration of the outline, with positions in the negotiated
// encoding. Members (fields, methods, enum variants) are Items too; for
// them isExported says whether the member is public.
type Item struct {
	Name           string              `json:"name"`
	SymbolType     string              `json:"symbolType"`
	Range          workspace.Range     `json:"range"`
	SelectionRange workspace.Range     `json:"selectionRange"`
	ByteRange      workspace.ByteRange `json:"byteRange"`
	Signature      string              `json:"signature"`
	AstKind        string              `json:"astKind"`
	IsExported     bool                `json:"isExported"`
	IsImport       bool                `json:"isImport"`
	Members        []Item              `json:"members"`

	lspKind  string // Entry.LSPKind
	receiver string // Entry.Receiver
}

// LSPKind is the name of the item's LSP SymbolKind ("function", "class", …),
// for the protocol layer to map.
func (it *Item) LSPKind() string {
	if it.lspKind != "" {
		return it.lspKind
	}
	return it.SymbolType
}

// Receiver is a method's receiver type (Go), "" otherwise.
func (it *Item) Receiver() string { return it.receiver }

// Line is the item's 1-based start line.
func (it *Item) Line() int { return it.Range.Start.Line + 1 }

// Items maps extracted entries to Items, positions in enc.
func Items(entries []Entry, m *workspace.Mapper, enc workspace.Encoding) []Item {
	out := make([]Item, 0, len(entries))
	for _, e := range entries {
		it := Item{Name: e.Name, SymbolType: e.SymbolType, ByteRange: e.Decl, Signature: e.Signature, AstKind: e.AstKind,
			IsExported: e.IsExported, IsImport: e.IsImport, lspKind: e.LSPKind, receiver: e.Receiver,
			Members: Items(e.Members, m, enc)}
		if r, err := m.OffsetRange(e.Decl.Start, e.Decl.End, enc); err == nil {
			it.Range = r
		}
		if r, err := m.OffsetRange(e.NameRange.Start, e.NameRange.End, enc); err == nil {
			it.SelectionRange = r
		}
		out = append(out, it)
	}
	return out
}
