package lsp

import (
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// The converters between the engines' values (workspace positions and
// ranges, rewrite edits, outline symbols) and the protocol's types, shared
// by every feature: each conversion is written once, here, so the features
// answer in the same shapes.

// protocolRange is a workspace range as the protocol's.
func protocolRange(r workspace.Range) protocol.Range {
	return protocol.Range{
		Start: protocol.Position{Line: uint32(r.Start.Line), Character: uint32(r.Start.Character)},
		End:   protocol.Position{Line: uint32(r.End.Line), Character: uint32(r.End.Character)},
	}
}

// workspaceRange is a protocol range as a workspace range.
func workspaceRange(r protocol.Range) workspace.Range {
	return workspace.Range{
		Start: workspace.Position{Line: int(r.Start.Line), Character: int(r.Start.Character)},
		End:   workspace.Position{Line: int(r.End.Line), Character: int(r.End.Character)},
	}
}

// protocolLocation is a range of the document with the URI.
func protocolLocation(docURI string, r workspace.Range) protocol.Location {
	return protocol.Location{URI: uri.URI(docURI), Range: protocolRange(r)}
}

// symbolInformation is a symbol as a flat SymbolInformation; container ""
// means none. kind is an outline kind (symbolKind).
func symbolInformation(name, kind, docURI string, r workspace.Range, container string) protocol.SymbolInformation {
	info := protocol.SymbolInformation{Location: protocolLocation(docURI, r)}
	info.Name, info.Kind = name, symbolKind(kind)
	if container != "" {
		info.ContainerName = &container
	}
	return info
}

// mustJSON encodes a value the server built itself (it cannot fail).
func mustJSON(v any) protocol.LSPAny {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("lsp: encoding %T: %v", v, err))
	}
	return raw
}

// annotationID names the change annotation that asks the client to confirm
// a rewrite before applying it.
const annotationID = "structls.rewrite"

// replacementsLabel names an edit to a person: "structls: 3 replacements
// in 2 files".
func replacementsLabel(replacements, files int) string {
	return "structls: " + english.Count(replacements, "replacement", "replacements") + " in " + english.Count(files, "file", "files")
}

// workspaceEdit turns the files of a preview into a WorkspaceEdit in the
// shape the client supports: versioned documentChanges (an open document
// carries the version the preview saw, a closed file null: "the disk is the
// truth"), else plain changes. The edits carry a change annotation that asks
// for confirmation when the edit spans several files or the confirmEdits
// setting says "always" (never with "never"), so VS Code opens its Refactor
// Preview.
func (s *Server) workspaceEdit(files []rewrite.FileEdit, settings workspace.Settings) *protocol.WorkspaceEdit {
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	edit := &protocol.WorkspaceEdit{}
	confirm := caps.changeAnnotations && needsConfirmation(settings.ConfirmEdits, len(files))
	if confirm {
		yes := true
		total := 0
		for _, f := range files {
			total += len(f.Replacements)
		}
		edit.ChangeAnnotations = map[protocol.ChangeAnnotationIdentifier]protocol.ChangeAnnotation{
			annotationID: {Label: replacementsLabel(total, len(files)), NeedsConfirmation: &yes},
		}
	}
	if !caps.documentChanges {
		edit.Changes = map[uri.URI][]protocol.TextEdit{}
		for _, f := range files {
			edits := make([]protocol.TextEdit, len(f.Replacements))
			for i, r := range f.Replacements {
				edits[i] = protocol.TextEdit{Range: protocolRange(r.Range), NewText: r.After}
			}
			edit.Changes[uri.URI(f.URI)] = edits
		}
		return edit
	}
	for _, f := range files {
		elems := make([]protocol.TextDocumentEditElement, len(f.Replacements))
		for i, r := range f.Replacements {
			te := protocol.TextEdit{Range: protocolRange(r.Range), NewText: r.After}
			if confirm {
				elems[i] = &protocol.AnnotatedTextEdit{TextEdit: te, AnnotationID: annotationID}
			} else {
				elems[i] = &te
			}
		}
		edit.DocumentChanges = append(edit.DocumentChanges, &protocol.TextDocumentEdit{
			TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
				TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.URI(f.URI)}, Version: f.Version},
			Edits: elems,
		})
	}
	return edit
}

// needsConfirmation applies the confirmEdits setting: "always", "never", or
// (the default) only for edits that span several files.
func needsConfirmation(setting string, files int) bool {
	switch setting {
	case "always":
		return true
	case "never":
		return false
	}
	return files > 1
}
