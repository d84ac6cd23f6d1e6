package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"go.lsp.dev/protocol"

	"github.com/structls/structls/workspace"
)

// Text synchronisation: incremental didChange into the overlay. Each
// notification produces new immutable documents; snapshots already taken
// keep the versions they saw. Each document opened, changed or closed is an
// overlay change event (documentChanged), which the parse cache and the
// diagnostics follow.

// documentChanged is the overlay's change event: the text synchronisation
// calls it once for each document it opened or changed (doc, the new
// version) or closed (nil), on the read loop, in order. The parse cache
// takes the new text, so the next parse of the document is incremental,
// and the diagnostics check it.
func (s *Server) documentChanged(uri string, doc *workspace.Document) {
	s.parseDocument(uri, doc)
	s.diagnoseDocument(uri, doc)
}

func (s *Server) didOpen(raw []byte) error {
	var p protocol.DidOpenTextDocumentParams
	if err := decodeParams(raw, &p); err != nil {
		return err
	}
	d := p.TextDocument
	s.overlay.Open(string(d.URI), string(d.LanguageID), d.Version, d.Text)
	s.documentChanged(string(d.URI), s.overlay.Get(string(d.URI)))
	return nil
}

// didChange applies a didChange to the overlay. The content changes are
// decoded here, not by go.lsp.dev/protocol: its union decoding takes a
// change whose range does not decode (a negative or over-2^32 position) for
// a whole-document change and would replace the buffer with a fragment.
// Here a change with a "range" key is a range change or an error; on any
// error the document keeps its last good text and waits for a full resync.
func (s *Server) didChange(raw []byte) error {
	var p struct {
		TextDocument struct {
			URI     string `json:"uri"`
			Version int32  `json:"version"`
		} `json:"textDocument"`
		ContentChanges []json.RawMessage `json:"contentChanges"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || p.TextDocument.URI == "" {
		return errors.New(`params must be {"textDocument": {"uri", "version"}, "contentChanges": [...]}; the change was not applied`)
	}
	uri := p.TextDocument.URI
	changes := make([]workspace.TextChange, 0, len(p.ContentChanges))
	for i, rawChange := range p.ContentChanges {
		change, err := decodeContentChange(rawChange)
		if err != nil {
			s.overlay.MarkOutOfSync(uri)
			return fmt.Errorf("%s (version %d): change %d %v; no change of this notification was applied, and the server keeps the last good text until the editor sends the whole document",
				uri, p.TextDocument.Version, i, err)
		}
		changes = append(changes, change)
	}
	s.mu.Lock()
	enc := s.enc
	s.mu.Unlock()
	if err := s.overlay.Change(uri, p.TextDocument.Version, changes, enc); err != nil {
		return err
	}
	s.documentChanged(uri, s.overlay.Get(uri))
	return nil
}

// decodeContentChange decodes one TextDocumentContentChangeEvent: with a
// "range" key it is a range change, whose positions must be LSP uintegers;
// without one it replaces the whole text.
func decodeContentChange(raw json.RawMessage) (workspace.TextChange, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return workspace.TextChange{}, errors.New(`is not an object {"range"?, "text"}`)
	}
	var text string
	if err := json.Unmarshal(fields["text"], &text); err != nil || string(fields["text"]) == "null" {
		return workspace.TextChange{}, errors.New(`has no "text" string`)
	}
	rawRange, isRangeChange := fields["range"]
	if !isRangeChange {
		return workspace.TextChange{Text: text}, nil
	}
	var r struct {
		Start, End *struct{ Line, Character *int64 }
	}
	if err := json.Unmarshal(rawRange, &r); err != nil || r.Start == nil || r.End == nil {
		return workspace.TextChange{}, fmt.Errorf("has a range %s that is not {start, end} of {line, character} integers", truncateJSON(rawRange))
	}
	for _, v := range []*int64{r.Start.Line, r.Start.Character, r.End.Line, r.End.Character} {
		if v == nil || *v < 0 || *v > math.MaxUint32 {
			return workspace.TextChange{}, fmt.Errorf("has a range %s whose positions are not all integers from 0 to 2^32-1", truncateJSON(rawRange))
		}
	}
	rng := workspace.Range{
		Start: workspace.Position{Line: int(*r.Start.Line), Character: int(*r.Start.Character)},
		End:   workspace.Position{Line: int(*r.End.Line), Character: int(*r.End.Character)},
	}
	return workspace.TextChange{Range: &rng, Text: text}, nil
}

func (s *Server) didClose(raw []byte) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decodeParams(raw, &p); err != nil {
		return err
	}
	s.overlay.Close(string(p.TextDocument.URI))
	s.documentChanged(string(p.TextDocument.URI), nil)
	return nil
}

// didSave asks for the saved file to be parsed again in the background
// (the buffer text is already the overlay's, and the disk now agrees with
// it) and, for a file of an ast-grep project, reloads the rules.
func (s *Server) didSave(raw []byte) error {
	var p protocol.DidSaveTextDocumentParams
	if err := decodeParams(raw, &p); err != nil {
		return err
	}
	if path, err := workspace.URIToPath(string(p.TextDocument.URI)); err == nil {
		s.filesChanged(path)
	}
	s.rulesFilesChanged(string(p.TextDocument.URI))
	return nil
}
