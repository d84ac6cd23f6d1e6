package lsp

import (
	"context"
	"strconv"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The pull model (LSP 3.17 textDocument/diagnostic), served to clients that
// declare textDocument.diagnostic; see diagnostics.go for why a client gets
// one model, not both.

// diagnosticIdentifier keeps structls's pulled diagnostics a set of their
// own in the client (rust-analyzer sets one for the same reason).
const diagnosticIdentifier = "structls"

// ServerCancelled is the LSP error code of a request the server gave up;
// with a pull diagnostic it means "the document changed, pull again".
const ServerCancelled jsonrpc2.Code = -32802

// diagnosticProvider is the diagnosticProvider capability for a client that
// pulls, nil for one that does not (a pushing server must not declare it).
func diagnosticProvider(pull bool) protocol.DiagnosticProvider {
	if !pull {
		return nil
	}
	id := diagnosticIdentifier
	return &protocol.DiagnosticOptions{Identifier: &id}
}

// documentDiagnostic answers textDocument/diagnostic with the diagnostics
// of the document version the request found (captured on the read loop,
// so it is the version the client had when it asked). When the report is
// the one the client already holds (previousResultId) the answer is
// "unchanged"; when the document changed while it was checked, the answer is
// ServerCancelled with retriggerRequest, so the client asks again.
func (s *Server) documentDiagnostic(request, work context.Context, raw []byte) (any, error) {
	var p protocol.DocumentDiagnosticParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, invalidParams("textDocument/diagnostic: %v", err)
	}
	doc := s.overlay.Get(string(p.TextDocument.URI))
	jsonrpc2.Async(request)
	if doc == nil { // not open: structls checks open documents only
		return &protocol.FullDocumentDiagnosticReport{Kind: string(protocol.DocumentDiagnosticReportKindFull), Items: []protocol.Diagnostic{}}, nil
	}
	report := s.reportFor(work, doc)
	switch {
	case report == nil:
		return nil, cancelledError()
	case s.overlay.Get(doc.URI) != doc:
		err := jsonrpc2.NewError(ServerCancelled, "the document changed while it was checked: pull its diagnostics again")
		err.Data = jsonrpc2.RawMessage(mustJSON(protocol.DiagnosticServerCancellationData{RetriggerRequest: true}))
		return nil, err
	}
	resultID := strconv.FormatUint(report.id, 10)
	if p.PreviousResultID != nil && *p.PreviousResultID == resultID {
		return &protocol.UnchangedDocumentDiagnosticReport{Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: resultID}, nil
	}
	return &protocol.FullDocumentDiagnosticReport{Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &resultID, Items: report.diagnostics}, nil
}
