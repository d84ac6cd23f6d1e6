package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/structls/structls/workspace"
)

// Text synchronisation: incremental didChange into the overlay. Each
// notification produces new immutable documents; snapshots already taken
// keep the versions they saw.

func (s *Server) didOpen(raw []byte) error {
	var p protocol.DidOpenTextDocumentParams
	if err := decodeParams("textDocument/didOpen", raw, &p); err != nil {
		return err
	}
	d := p.TextDocument
	s.overlay.Open(string(d.URI), string(d.LanguageID), d.Version, d.Text)
	return nil
}

func (s *Server) didChange(raw []byte) error {
	var p protocol.DidChangeTextDocumentParams
	if err := decodeParams("textDocument/didChange", raw, &p); err != nil {
		return err
	}
	changes := make([]workspace.TextChange, 0, len(p.ContentChanges))
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			r := workspace.Range{
				Start: workspace.Position{Line: int(c.Range.Start.Line), Character: int(c.Range.Start.Character)},
				End:   workspace.Position{Line: int(c.Range.End.Line), Character: int(c.Range.End.Character)},
			}
			changes = append(changes, workspace.TextChange{Range: &r, Text: c.Text})
		case *protocol.TextDocumentContentChangeWholeDocument:
			changes = append(changes, workspace.TextChange{Text: c.Text})
		default:
			return fmt.Errorf("unexpected content change %T", c)
		}
	}
	s.mu.Lock()
	enc := s.enc
	s.mu.Unlock()
	return s.overlay.Change(string(p.TextDocument.URI), p.TextDocument.Version, changes, enc)
}

func (s *Server) didClose(raw []byte) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decodeParams("textDocument/didClose", raw, &p); err != nil {
		return err
	}
	s.overlay.Close(string(p.TextDocument.URI))
	return nil
}

// didSave needs no work: the buffer text is already the overlay's, and the
// disk now agrees with it.
func (s *Server) didSave(raw []byte) error {
	var p protocol.DidSaveTextDocumentParams
	return decodeParams("textDocument/didSave", raw, &p)
}
