// Package client is an LSP client that behaves like an editor, for driving
// a structls server from the same process: the command line, the MCP server,
// the shared server's clients, the benchmarks and the tests all use it, as
// gopls's tests use their fake editor. It speaks to the server over the
// JSON-RPC connection only, as a real editor does, so it knows nothing of the
// server's insides; lsp.StartInProcess joins the two over a pipe.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/structls/structls/workspace"
)

// Editor is an LSP client that behaves like an editor: it keeps buffers
// (open documents with versions), sends didOpen/didChange for them, answers
// the server's requests (progress creation, configuration, capability
// registration, applyEdit) and records the server's notifications. Like
// gopls's fake editor it refuses a WorkspaceEdit whose document version does
// not match its buffer. The CLI, the demo and the tests all drive the
// server through it.
type Editor struct {
	conn    jsonrpc2.Conn
	opts    EditorOptions
	buffers *workspace.Overlay

	mu            sync.Mutex
	settings      json.RawMessage // the answer to workspace/configuration (SetSettings)
	encoding      workspace.Encoding
	progress      []ProgressEvent
	created       []string // tokens of window/workDoneProgress/create
	logs          []string
	registrations []Registration
	editRequests  []EditRequest
	partials      map[string]*partialReceiver // by partialResultToken
	nextPartial   int
	diagnostics   map[string]PublishedDiagnostics // the newest publishDiagnostics per URI
	published     int                             // publishDiagnostics received
	refreshes     int                             // workspace/diagnostic/refresh received
}

// ApplyEditMode is how an Editor answers workspace/applyEdit.
type ApplyEditMode int

const (
	// ApplyEditsAccept applies every edit whose versions match (the default).
	ApplyEditsAccept ApplyEditMode = iota
	// ApplyEditsDecline answers applied: false, as VS Code does when the
	// person cancels the Refactor Preview.
	ApplyEditsDecline
	// ApplyEditsFail answers with an error, as eglot does ("User cancelled").
	ApplyEditsFail
	// ApplyEditsUnsupported does not declare workspace.applyEdit at all (the
	// CLI, bare agents): the server writes the files itself.
	ApplyEditsUnsupported
)

// EditRequest is one workspace/applyEdit the editor received.
type EditRequest struct {
	Label   string
	Applied bool
	Reason  string          // why it was not applied
	Params  json.RawMessage // the request's params as sent
}

// Registration is one capability the server registered dynamically.
type Registration struct {
	ID, Method      string
	RegisterOptions json.RawMessage
}

// EditorOptions are the capabilities and settings the editor presents.
type EditorOptions struct {
	PositionEncodings []string        // offered in general.positionEncodings; none means utf-16
	WorkDoneProgress  bool            // window.workDoneProgress
	Settings          json.RawMessage // answers workspace/configuration for "structls"; nil: capability off
	InitOptions       json.RawMessage // initializationOptions
	DynamicWatch      bool            // workspace.didChangeWatchedFiles.dynamicRegistration
	ApplyEdits        ApplyEditMode   // how workspace/applyEdit is answered
	PlainEdits        bool            // no workspace.workspaceEdit.documentChanges: WorkspaceEdits come as plain changes
	ResolveActions    bool            // textDocument.codeAction.resolveSupport for "edit"
	PullDiagnostics   bool            // textDocument.diagnostic and workspace.diagnostics.refreshSupport
	FlatSymbols       bool            // no textDocument.documentSymbol.hierarchicalDocumentSymbolSupport
	// OnNotify, when set, sees every notification from the server.
	OnNotify func(method string, params json.RawMessage)
}

// ProgressEvent is one $/progress notification.
type ProgressEvent struct {
	Token string
	Kind  string // begin, report, end
	Title string
	// Message is the report or end message.
	Message     string
	Cancellable bool
	Percentage  *int // of a report, when the server knows the total
}

// NewEditor connects an editor to a server over rwc.
func NewEditor(rwc io.ReadWriteCloser, opts EditorOptions) *Editor {
	e := &Editor{opts: opts, buffers: workspace.NewOverlay(), settings: opts.Settings}
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	e.conn.Go(context.Background(), e.handle)
	return e
}

// Initialize sends initialize with the folders (absolute paths) and then initialized.
// It returns the server's InitializeResult as JSON.
func (e *Editor) Initialize(ctx context.Context, folders ...string) (json.RawMessage, error) {
	var wsFolders []map[string]string
	for _, f := range folders {
		wsFolders = append(wsFolders, map[string]string{"uri": workspace.PathToURI(f), "name": f})
	}
	caps := map[string]any{
		"window": map[string]any{"workDoneProgress": e.opts.WorkDoneProgress},
		"workspace": map[string]any{"configuration": e.opts.Settings != nil, "workspaceFolders": true,
			"applyEdit":             e.opts.ApplyEdits != ApplyEditsUnsupported,
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": e.opts.DynamicWatch, "relativePatternSupport": true},
			"workspaceEdit":         map[string]any{"documentChanges": !e.opts.PlainEdits, "changeAnnotationSupport": map[string]any{"groupsOnLabel": true}}},
	}
	textDocument := map[string]any{"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": !e.opts.FlatSymbols}}
	if e.opts.ResolveActions {
		textDocument["codeAction"] = map[string]any{"resolveSupport": map[string]any{"properties": []string{"edit"}}}
	}
	if e.opts.PullDiagnostics {
		textDocument["diagnostic"] = map[string]any{}
		caps["workspace"].(map[string]any)["diagnostics"] = map[string]any{"refreshSupport": true}
	}
	caps["textDocument"] = textDocument
	if len(e.opts.PositionEncodings) > 0 {
		caps["general"] = map[string]any{"positionEncodings": e.opts.PositionEncodings}
	}
	params := map[string]any{"processId": os.Getpid(), "capabilities": caps, "workspaceFolders": wsFolders}
	if e.opts.InitOptions != nil {
		params["initializationOptions"] = e.opts.InitOptions
	}
	var result json.RawMessage
	if err := e.Call(ctx, "initialize", params, &result); err != nil {
		return nil, err
	}
	var r struct {
		Capabilities struct{ PositionEncoding string } `json:"capabilities"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return nil, fmt.Errorf("initialize result: %w", err)
	}
	e.mu.Lock()
	e.encoding = encodingNamed(r.Capabilities.PositionEncoding)
	e.mu.Unlock()
	return result, e.Notify(ctx, "initialized", map[string]any{})
}

func encodingNamed(name string) workspace.Encoding {
	switch name {
	case "utf-8":
		return workspace.UTF8
	case "utf-32":
		return workspace.UTF32
	}
	return workspace.UTF16
}

// Call sends a request and decodes its result into result (which may be nil).
func (e *Editor) Call(ctx context.Context, method string, params, result any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	var out jsonrpc2.RawMessage
	if _, err := e.conn.Call(ctx, method, jsonrpc2.RawMessage(raw), &out); err != nil {
		return err
	}
	if result == nil || len(out) == 0 {
		return nil
	}
	if raw, ok := result.(*json.RawMessage); ok {
		*raw = json.RawMessage(out) // already a copy: decoding it again would only check and copy it
		return nil
	}
	return json.Unmarshal(out, result)
}

// Notify sends a notification.
func (e *Editor) Notify(ctx context.Context, method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return e.conn.Notify(ctx, method, jsonrpc2.RawMessage(raw))
}

// ExecuteCommand runs a structls command with its argument and returns the raw result.
func (e *Editor) ExecuteCommand(ctx context.Context, command string, arg any) (json.RawMessage, error) {
	var result json.RawMessage
	err := e.Call(ctx, "workspace/executeCommand", map[string]any{"command": command, "arguments": []any{arg}}, &result)
	return result, err
}

// OpenFile opens the file at path in a buffer (version 1) with the given text.
func (e *Editor) OpenFile(ctx context.Context, path, languageID, text string) (uri string, err error) {
	uri = workspace.PathToURI(path)
	e.buffers.Open(uri, languageID, 1, text)
	return uri, e.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": languageID, "version": 1, "text": text}})
}

// Edit is one change to a buffer; a nil Range replaces the whole text.
type Edit struct {
	Range *workspace.Range
	Text  string
}

// EditBuffer applies edits to an open buffer, bumps its version and sends didChange.
func (e *Editor) EditBuffer(ctx context.Context, uri string, edits ...Edit) error {
	doc := e.buffers.Get(uri)
	if doc == nil {
		return fmt.Errorf("%s is not open in the editor", uri)
	}
	changes := make([]workspace.TextChange, len(edits))
	wire := make([]map[string]any, len(edits))
	for i, ed := range edits {
		changes[i] = workspace.TextChange{Range: ed.Range, Text: ed.Text}
		wire[i] = map[string]any{"text": ed.Text}
		if ed.Range != nil {
			wire[i]["range"] = ed.Range
		}
	}
	version := doc.Version + 1
	if err := e.buffers.Change(uri, version, changes, e.Encoding()); err != nil {
		return err
	}
	return e.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": wire})
}

// CloseFile closes a buffer.
func (e *Editor) CloseFile(ctx context.Context, uri string) error {
	e.buffers.Close(uri)
	return e.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
}

// BufferText returns the editor's text of an open buffer.
func (e *Editor) BufferText(uri string) (string, bool) {
	if d := e.buffers.Get(uri); d != nil {
		return string(d.Content), true
	}
	return "", false
}

// SetSettings changes the settings the editor answers workspace/configuration
// with from now on, as a person editing them does; notify the server with
// workspace/didChangeConfiguration for it to ask again. The configuration
// capability stays as EditorOptions.Settings declared it.
func (e *Editor) SetSettings(settings json.RawMessage) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.settings = settings
}

// Encoding is the position encoding the server chose.
func (e *Editor) Encoding() workspace.Encoding {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.encoding
}

// Shutdown sends shutdown and then exit.
func (e *Editor) Shutdown(ctx context.Context) error {
	if err := e.Call(ctx, "shutdown", nil, nil); err != nil {
		return err
	}
	return e.Notify(ctx, "exit", nil)
}

// Close closes the connection.
func (e *Editor) Close() error { return e.conn.Close() }

// Progress returns the progress notifications received so far.
func (e *Editor) Progress() []ProgressEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.progress)
}

// WaitProgressEnd waits until a progress whose title match accepts has
// begun and ended (the server's "Indexing N files", say), and returns its
// end message; it returns ctx's error if ctx ends first.
func (e *Editor) WaitProgressEnd(ctx context.Context, match func(title string) bool) (string, error) {
	for {
		begun := map[string]bool{}
		for _, ev := range e.Progress() {
			switch {
			case ev.Kind == "begin" && match(ev.Title):
				begun[ev.Token] = true
			case ev.Kind == "end" && begun[ev.Token]:
				return ev.Message, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("no such progress ended: %w", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// CreatedTokens returns the progress tokens the server asked to create.
func (e *Editor) CreatedTokens() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.created)
}

// Logs returns the window/logMessage and showMessage texts received so far.
func (e *Editor) Logs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.logs)
}

// Registrations returns the capabilities the server has registered
// dynamically and not unregistered.
func (e *Editor) Registrations() []Registration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.registrations)
}

// handle answers the server's requests and records its notifications.
func (e *Editor) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	if req.Method() == "$/progress" && e.receivePartial(json.RawMessage(req.Params())) { // borrowed: a partial result is not kept
		return nil, nil
	}
	params := json.RawMessage(slices.Clone(req.Params()))
	switch req.Method() {
	case "$/progress":
		e.recordProgress(params)
	case "window/logMessage", "window/showMessage":
		var p struct{ Message string }
		_ = json.Unmarshal(params, &p)
		e.mu.Lock()
		e.logs = append(e.logs, p.Message)
		e.mu.Unlock()
	case "window/workDoneProgress/create":
		var p struct{ Token json.RawMessage }
		_ = json.Unmarshal(params, &p)
		e.mu.Lock()
		e.created = append(e.created, string(p.Token))
		e.mu.Unlock()
		return nil, nil
	case "client/unregisterCapability":
		var p struct{ Unregisterations []struct{ ID string } } // sic: the LSP spelling
		_ = json.Unmarshal(params, &p)
		e.mu.Lock()
		for _, u := range p.Unregisterations {
			e.registrations = slices.DeleteFunc(e.registrations, func(r Registration) bool { return r.ID == u.ID })
		}
		e.mu.Unlock()
		return nil, nil
	case "client/registerCapability":
		var p struct{ Registrations []Registration }
		_ = json.Unmarshal(params, &p)
		e.mu.Lock()
		e.registrations = append(e.registrations, p.Registrations...)
		e.mu.Unlock()
		return nil, nil
	case "workspace/configuration":
		var p struct{ Items []json.RawMessage }
		_ = json.Unmarshal(params, &p)
		e.mu.Lock()
		settings := e.settings
		e.mu.Unlock()
		out := make([]json.RawMessage, len(p.Items))
		for i := range out {
			out[i] = settings
		}
		return out, nil
	case "workspace/applyEdit":
		return e.applyEdit(ctx, params)
	case "textDocument/publishDiagnostics":
		e.recordDiagnostics(params)
	case "workspace/diagnostic/refresh":
		e.mu.Lock()
		e.refreshes++
		e.mu.Unlock()
		return nil, nil
	default:
		if req.IsCall() {
			return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "editor: %s not supported", req.Method())
		}
	}
	if !req.IsCall() && e.opts.OnNotify != nil {
		e.opts.OnNotify(req.Method(), params)
	}
	return nil, nil
}

func (e *Editor) recordProgress(params json.RawMessage) {
	var p struct {
		Token json.RawMessage
		Value struct {
			Kind, Title, Message string
			Cancellable          bool
			Percentage           *int
		}
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.progress = append(e.progress, ProgressEvent{Token: string(p.Token), Kind: p.Value.Kind, Title: p.Value.Title,
		Message: p.Value.Message, Cancellable: p.Value.Cancellable, Percentage: p.Value.Percentage})
}

// applyEditResult is the reply to workspace/applyEdit.
type applyEditResult struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
}

// textEdit is a TextEdit or an AnnotatedTextEdit (whose annotation this
// editor confirms without asking).
type textEdit struct {
	Range   workspace.Range `json:"range"`
	NewText string          `json:"newText"`
}

// documentEdit is the edits of one document; Version is nil for "the file
// on disk" (or for plain changes, which carry no version).
type documentEdit struct {
	URI     string
	Version *int32
	Edits   []textEdit
}

// applyEdit answers workspace/applyEdit as the options say, and records it.
func (e *Editor) applyEdit(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Label string `json:"label"`
		Edit  struct {
			DocumentChanges []struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version *int32 `json:"version"`
				} `json:"textDocument"`
				Edits []textEdit `json:"edits"`
			} `json:"documentChanges"`
			Changes map[string][]textEdit `json:"changes"`
		} `json:"edit"`
	}
	req := EditRequest{Params: params}
	defer func() {
		e.mu.Lock()
		e.editRequests = append(e.editRequests, req)
		e.mu.Unlock()
	}()
	if err := json.Unmarshal(params, &p); err != nil {
		req.Reason = "malformed WorkspaceEdit: " + err.Error()
		return applyEditResult{FailureReason: req.Reason}, nil
	}
	req.Label = p.Label
	switch e.opts.ApplyEdits {
	case ApplyEditsDecline:
		req.Reason = "declined by the user"
		return applyEditResult{FailureReason: req.Reason}, nil
	case ApplyEditsFail:
		req.Reason = "User cancelled"
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "User cancelled")
	}
	var docs []documentEdit
	for _, dc := range p.Edit.DocumentChanges {
		docs = append(docs, documentEdit{URI: dc.TextDocument.URI, Version: dc.TextDocument.Version, Edits: dc.Edits})
	}
	for uri, edits := range p.Edit.Changes {
		docs = append(docs, documentEdit{URI: uri, Edits: edits})
	}
	if reason := e.applyDocumentEdits(ctx, docs); reason != "" {
		req.Reason = reason
		return applyEditResult{FailureReason: reason}, nil
	}
	req.Applied = true
	return applyEditResult{Applied: true}, nil
}

// ApplyWorkspaceEdit applies a WorkspaceEdit the editor was handed (the
// edit of a code action a person chose) to its buffers exactly as it answers
// workspace/applyEdit, under the options' ApplyEdits mode, and records it
// in EditRequests. It returns why the edit was not applied, or "".
func (e *Editor) ApplyWorkspaceEdit(ctx context.Context, label string, edit json.RawMessage) (string, error) {
	params, err := json.Marshal(map[string]any{"label": label, "edit": edit})
	if err != nil {
		return "", err
	}
	res, err := e.applyEdit(ctx, params)
	if err != nil {
		return "", err
	}
	return res.(applyEditResult).FailureReason, nil
}

// applyDocumentEdits applies edits all or nothing, as VS Code does: every
// versioned document must match its buffer's version; a file that is not
// open is opened from disk first (and stays open, unsaved, like an editor's
// background buffer). It returns why the edit was refused, or "".
func (e *Editor) applyDocumentEdits(ctx context.Context, docs []documentEdit) string {
	for _, d := range docs {
		doc := e.buffers.Get(d.URI)
		if doc == nil && d.Version != nil {
			return fmt.Sprintf("%s is not open in the editor, but the edit names version %d of it", d.URI, *d.Version)
		}
		if doc != nil && d.Version != nil && *d.Version != doc.Version {
			return fmt.Sprintf("buffer versions for %s do not match: edit has %d, buffer has %d", d.URI, *d.Version, doc.Version)
		}
	}
	for _, d := range docs {
		if e.buffers.Get(d.URI) != nil {
			continue
		}
		path, err := workspace.URIToPath(d.URI)
		if err != nil {
			return err.Error()
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return fmt.Sprintf("%s cannot be opened: %v", d.URI, err)
		}
		text = bytes.TrimPrefix(text, []byte("\ufeff")) // editors keep a byte order mark out of the buffer
		if _, err := e.OpenFile(ctx, path, "", string(text)); err != nil {
			return err.Error()
		}
	}
	for _, d := range docs {
		doc := e.buffers.Get(d.URI)
		edits := slices.Clone(d.Edits)
		// All ranges refer to the original text: apply from the end backwards.
		slices.SortStableFunc(edits, func(a, b textEdit) int {
			if a.Range.Start.Line != b.Range.Start.Line {
				return b.Range.Start.Line - a.Range.Start.Line
			}
			return b.Range.Start.Character - a.Range.Start.Character
		})
		changes := make([]workspace.TextChange, len(edits))
		for i := range edits {
			changes[i] = workspace.TextChange{Range: &edits[i].Range, Text: edits[i].NewText}
		}
		if err := e.buffers.Change(d.URI, doc.Version+1, changes, e.Encoding()); err != nil {
			return err.Error()
		}
		// Like an editor, tell the server about the buffer's new text.
		changed := e.buffers.Get(d.URI)
		_ = e.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": changed.URI, "version": changed.Version},
			"contentChanges": []map[string]any{{"text": string(changed.Content)}}})
	}
	return ""
}

// ErrorCode returns the JSON-RPC error code of an error from Call, or 0.
func ErrorCode(err error) int {
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		return int(rpcErr.Code)
	}
	return 0
}

// EditRequests returns the workspace/applyEdit requests received so far.
func (e *Editor) EditRequests() []EditRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.editRequests)
}

// PublishedDiagnostics is one textDocument/publishDiagnostics notification.
type PublishedDiagnostics struct {
	URI         string       `json:"uri"`
	Version     *int32       `json:"version"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Diagnostic is the part of an LSP diagnostic the editor reads.
type Diagnostic struct {
	Range           workspace.Range `json:"range"`
	Severity        int             `json:"severity"`
	Code            string          `json:"code"`
	CodeDescription *struct {
		Href string `json:"href"`
	} `json:"codeDescription"`
	Source             string `json:"source"`
	Message            string `json:"message"`
	RelatedInformation []struct {
		Location struct {
			URI   string          `json:"uri"`
			Range workspace.Range `json:"range"`
		} `json:"location"`
		Message string `json:"message"`
	} `json:"relatedInformation"`
}

func (e *Editor) recordDiagnostics(params json.RawMessage) {
	var p PublishedDiagnostics
	if json.Unmarshal(params, &p) != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.diagnostics == nil {
		e.diagnostics = map[string]PublishedDiagnostics{}
	}
	e.diagnostics[p.URI] = p
	e.published++
}

// Diagnostics returns the newest diagnostics published for the URI and
// whether any were.
func (e *Editor) Diagnostics(uri string) (PublishedDiagnostics, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	p, ok := e.diagnostics[uri]
	return p, ok
}

// DiagnosticCounts returns how many publishDiagnostics notifications and
// workspace/diagnostic/refresh requests the editor has received.
func (e *Editor) DiagnosticCounts() (published, refreshes int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.published, e.refreshes
}
