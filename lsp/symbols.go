package lsp

import (
	"context"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/outline"
	"github.com/structls/structls/workspace"
)

// Document and workspace symbols come from package outline: the same
// extractors as structls.outline. documentSymbol answers from the editor's
// buffer (or the disk, for a file not open), hierarchically when the client
// supports it; imports are left out, as gopls does. workspace/symbol
// searches every folder through the server's symbol index, which re-reads
// only the files that changed since the last query.

// symbolsAsync answers textDocument/documentSymbol and workspace/symbol. The
// snapshot is taken on the read loop, so it reflects every change sent
// before the request; the work runs off it.
func (s *Server) symbolsAsync(request, work context.Context, method string, params []byte) (any, error) {
	folders, docs, enc := s.snapshotParts()
	s.mu.Lock()
	hierarchical := s.caps.hierarchicalSymbols
	s.mu.Unlock()
	if method == "textDocument/documentSymbol" {
		var p protocol.DocumentSymbolParams
		if err := decodeParams(params, &p); err != nil {
			return nil, invalidParams("%s: %v", method, err)
		}
		jsonrpc2.Async(request)
		snap := workspace.NewSnapshot(folders, s.currentSettings(), docs)
		return s.documentSymbols(work, snap, docs[string(p.TextDocument.URI)], string(p.TextDocument.URI), enc, hierarchical)
	}
	var p protocol.WorkspaceSymbolParams
	if err := decodeParams(params, &p); err != nil {
		return nil, invalidParams("%s: %v", method, err)
	}
	s.running.Add(1)
	defer s.running.Done()
	jsonrpc2.Async(request)
	select {
	case s.requests <- struct{}{}:
		defer func() { <-s.requests }()
	case <-work.Done():
		return nil, cancelledError()
	}
	snap := workspace.NewSnapshot(folders, s.currentSettings(), docs)
	return s.workspaceSymbols(work, snap, p, enc)
}

// documentSymbols outlines one document: open is its buffer when the
// editor has it open (inside the folders or not), else the file is read
// from disk, if it is in a workspace folder.
func (s *Server) documentSymbols(ctx context.Context, snap *workspace.Snapshot, open *workspace.Document, docURI string,
	enc workspace.Encoding, hierarchical bool) (any, error) {
	name, content, err := documentText(ctx, snap, open, docURI)
	if err != nil {
		return nil, jsonrpc2.Errorf(RequestFailed, "textDocument/documentSymbol: %v", err)
	}
	l := lang.ForPath(name)
	if content == nil || l == nil || outline.SpecFor(l.Name) == nil {
		return []protocol.DocumentSymbol{}, nil // nothing to outline
	}
	entries, err := outline.ExtractSource(ctx, l, content, s.parseCache)
	if err != nil {
		if ctx.Err() != nil {
			return nil, cancelledError()
		}
		return nil, jsonrpc2.Errorf(RequestFailed, "textDocument/documentSymbol: cannot parse %s as %s: %v", name, l.Name, err)
	}
	items := outline.Items(entries, workspace.NewMapper(content), enc)
	if hierarchical {
		return documentSymbolTree(items), nil
	}
	out := []protocol.SymbolInformation{}
	flattenSymbols(items, "", docURI, &out)
	return out, nil
}

// documentText returns a document's file name and text: the open buffer,
// or the file on disk when it is in a workspace folder; nil text when it
// is neither.
func documentText(ctx context.Context, snap *workspace.Snapshot, open *workspace.Document, docURI string) (string, []byte, error) {
	if open != nil {
		name := open.Path
		if name == "" {
			name = docURI
		}
		return name, open.Content, nil
	}
	f, content, err := snap.ReadNamed(ctx, docURI)
	var readErr *workspace.ReadError
	switch {
	case errors.As(err, &readErr):
		return "", nil, err
	case err != nil:
		return "", nil, nil // not a file of the workspace
	}
	return f.Rel, content, nil
}

// documentSymbolTree turns items (imports left out) into DocumentSymbols.
func documentSymbolTree(items []outline.Item) []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	for _, it := range items {
		if it.IsImport {
			continue
		}
		sym := protocol.DocumentSymbol{Name: symbolName(&it), Kind: symbolKind(it.LSPKind()),
			Range: protocolRange(it.Range), SelectionRange: protocolRange(it.SelectionRange)}
		if it.Signature != "" {
			detail := it.Signature
			sym.Detail = &detail
		}
		if len(it.Members) > 0 {
			sym.Children = documentSymbolTree(it.Members)
		}
		out = append(out, sym)
	}
	return out
}

// flattenSymbols appends items and their members as SymbolInformation, for
// clients without hierarchical document symbols.
func flattenSymbols(items []outline.Item, container, docURI string, out *[]protocol.SymbolInformation) {
	for _, it := range items {
		if it.IsImport {
			continue
		}
		*out = append(*out, symbolInformation(symbolName(&it), it.LSPKind(), docURI, it.Range, container))
		flattenSymbols(it.Members, it.Name, docURI, out)
	}
}

// symbolName is an item's name as editors show it: a method with a
// receiver is "(T).M", as gopls names it.
func symbolName(it *outline.Item) string {
	if r := it.Receiver(); r != "" {
		return fmt.Sprintf("(%s).%s", r, it.Name)
	}
	return it.Name
}

// symbolKinds maps outline symbol types (and LSP kind overrides) to kinds.
var symbolKinds = map[string]protocol.SymbolKind{
	"file": protocol.SymbolKindFile, "module": protocol.SymbolKindModule, "namespace": protocol.SymbolKindNamespace,
	"package": protocol.SymbolKindPackage, "class": protocol.SymbolKindClass, "method": protocol.SymbolKindMethod,
	"property": protocol.SymbolKindProperty, "field": protocol.SymbolKindField, "constructor": protocol.SymbolKindConstructor,
	"enum": protocol.SymbolKindEnum, "interface": protocol.SymbolKindInterface, "function": protocol.SymbolKindFunction,
	"variable": protocol.SymbolKindVariable, "constant": protocol.SymbolKindConstant, "enumMember": protocol.SymbolKindEnumMember,
	"struct": protocol.SymbolKindStruct, "event": protocol.SymbolKindEvent, "operator": protocol.SymbolKindOperator,
	"typeParameter": protocol.SymbolKindTypeParameter, "type": protocol.SymbolKindClass, "trait": protocol.SymbolKindInterface,
	"macro": protocol.SymbolKindFunction, "heading": protocol.SymbolKindString, "rule": protocol.SymbolKindKey,
	"object": protocol.SymbolKindObject, "key": protocol.SymbolKindKey,
}

func symbolKind(name string) protocol.SymbolKind {
	if k, ok := symbolKinds[name]; ok {
		return k
	}
	return protocol.SymbolKindVariable
}

// partialBatch is how many symbols one partial result carries.
const partialBatch = 50

// workspaceSymbols answers workspace/symbol. With a partialResultToken the
// ranked symbols go out in $/progress batches of partialBatch, best first,
// and the reply itself is empty, as the protocol asks.
func (s *Server) workspaceSymbols(ctx context.Context, snap *workspace.Snapshot, p protocol.WorkspaceSymbolParams, enc workspace.Encoding) (any, error) {
	work, cancel := context.WithCancel(ctx)
	defer cancel()
	wd := s.startProgress("Indexing symbols", p.WorkDoneToken, cancel)
	s.watchMu.Lock()
	trusted := s.watching // the client reports changes on disk: the index need not walk again
	s.watchMu.Unlock()
	found, _, err := s.symbols.Symbols(work, snap, outline.SymbolQuery{Query: p.Query, Trusted: trusted}, enc, wd.report, s.parseCache)
	if err != nil {
		wd.end("failed")
		return nil, s.commandError(work, "workspace/symbol", err)
	}
	wd.end(fmt.Sprintf("%d symbols", len(found)))
	out := make([]protocol.SymbolInformation, 0, len(found))
	for _, sym := range found {
		out = append(out, symbolInformation(sym.Name, sym.Kind, sym.URI, sym.Range, sym.Container))
	}
	if p.PartialResultToken == nil {
		return out, nil
	}
	for start := 0; start < len(out); start += partialBatch {
		raw, err := protocol.Marshal(out[start:min(start+partialBatch, len(out))])
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "workspace/symbol: encoding partial results: %v", err)
		}
		if err := s.client.Progress(s.ctx, &protocol.ProgressParams{Token: p.PartialResultToken, Value: raw}); err != nil {
			return nil, jsonrpc2.Errorf(RequestFailed, "workspace/symbol: sending partial results: %v", err)
		}
	}
	return []protocol.SymbolInformation{}, nil
}
