package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// Code actions: every pending rewrite preview that touches a document is
// offered there as a refactor.rewrite action, and when the cursor is inside
// one of its replacements, that replacement alone too. The actions carry
// only data; codeAction/resolve re-checks the files (the same stale check as
// applyEdit) and fills in the edit. A client that cannot resolve edits gets
// the whole preview as a command (structls.applyEdit, which checks and
// applies) and a single replacement as an inline, versioned edit.

// actionData is what an action carries between codeAction and resolve.
type actionData struct {
	ID    string `json:"id"`
	URI   string `json:"uri,omitempty"`   // with Index: one replacement of this file only
	Index *int   `json:"index,omitempty"` // the replacement's index in the file's list
}

// codeActions answers textDocument/codeAction: the rewrite previews'
// actions, then the quick fixes of the structls diagnostics.
func (s *Server) codeActions(ctx context.Context, raw []byte) (any, error) {
	var p protocol.CodeActionParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, invalidParams("textDocument/codeAction: %v", err)
	}
	actions := []protocol.CodeAction{}
	if wantsKind(p.Context.Only, protocol.CodeActionKindRefactorRewrite) {
		actions = append(actions, s.rewriteActions(&p)...)
	}
	return append(actions, s.fixActions(ctx, &p)...), nil
}

// rewriteActions offers the pending rewrite previews that touch the document.
func (s *Server) rewriteActions(p *protocol.CodeActionParams) []protocol.CodeAction {
	docURI := string(p.TextDocument.URI)
	doc := s.overlay.Get(docURI)
	s.mu.Lock()
	resolvable := s.caps.codeActionResolve
	s.mu.Unlock()
	kind := protocol.CodeActionKindRefactorRewrite
	actions := []protocol.CodeAction{}
	for _, plan := range s.edits.Plans() {
		res := plan.Result()
		file := fileOf(res, docURI)
		if file == nil || (doc != nil && file.Version != nil && *file.Version != doc.Version) {
			continue // not in this document, or previewed on an older version of it
		}
		whole := protocol.CodeAction{Title: fmt.Sprintf("Apply structls rewrite: %d replacements in %d files", res.TotalReplacements, res.FilesTouched), Kind: &kind}
		if resolvable {
			whole.Data = mustJSON(actionData{ID: plan.ID()})
		} else {
			whole.Command = protocol.Command{Title: whole.Title, Command: CommandApplyEdit, Arguments: []protocol.LSPAny{mustJSON(editIDArg{ID: plan.ID()})}}
		}
		actions = append(actions, whole)
		i := replacementAt(file, p.Range)
		if i < 0 {
			continue
		}
		one := protocol.CodeAction{Title: "Apply this replacement only", Kind: &kind}
		data := actionData{ID: plan.ID(), URI: docURI, Index: &i}
		if resolvable {
			one.Data = mustJSON(data)
		} else {
			edit, err := s.resolveEdit(data)
			if err != nil {
				continue
			}
			one.Edit = edit
		}
		actions = append(actions, one)
	}
	return actions
}

// fixAllKind is the kind of the "fix all" action: under source.fixAll, so
// VS Code's "editor.codeActionsOnSave": {"source.fixAll": "explicit"} (or
// "source.fixAll.structls") runs it on save.
const fixAllKind protocol.CodeActionKind = "source.fixAll.structls"

// fixActions offers, for an open document, a quick fix per fix of each
// structls diagnostic the request's range touches (the first fix of a
// finding preferred), and "fix all" over the whole document. Each carries
// a WorkspaceEdit versioned with the document version the fixes were
// computed on, so an editor whose buffer moved on refuses it.
func (s *Server) fixActions(ctx context.Context, p *protocol.CodeActionParams) []protocol.CodeAction {
	wantQuick := wantsKind(p.Context.Only, protocol.CodeActionKindQuickFix)
	wantAll := wantsKind(p.Context.Only, fixAllKind)
	doc := s.overlay.Get(string(p.TextDocument.URI))
	if doc == nil || !wantQuick && !wantAll {
		return nil
	}
	report := s.reportFor(ctx, doc)
	if report == nil || len(report.fixes) == 0 {
		return nil
	}
	settings := s.currentSettings()
	var actions []protocol.CodeAction
	if wantQuick {
		quickfix := protocol.CodeActionKindQuickFix
		for i, fix := range report.fixes {
			if !touches(fix.diagnostic, workspaceRange(p.Range)) {
				continue
			}
			preferred := i == 0 || report.fixes[i-1].finding != fix.finding
			actions = append(actions, protocol.CodeAction{
				Title:       cmp.Or(fix.title, fmt.Sprintf("Fix `%s` with structls", fix.ruleID)),
				Kind:        &quickfix,
				Diagnostics: []protocol.Diagnostic{report.diagnostics[fix.finding]},
				IsPreferred: &preferred,
				Edit:        s.workspaceEdit([]rewrite.FileEdit{fixFileEdit(report.doc, fix)}, settings),
			})
		}
	}
	if !wantAll {
		return actions
	}
	all, err := report.fixAll()
	if err != nil {
		s.log.Debug("fix all", zap.String("uri", doc.URI), zap.Error(err))
		return actions
	}
	if len(all.Replacements) > 0 {
		kind := fixAllKind
		actions = append(actions, protocol.CodeAction{
			Title: "Fix all structls issues in this file",
			Kind:  &kind,
			Edit:  s.workspaceEdit([]rewrite.FileEdit{all}, settings),
		})
	}
	return actions
}

// fixFileEdit is one fix as the edit of its document version.
func fixFileEdit(doc *workspace.Document, fix diagnosticFix) rewrite.FileEdit {
	version := doc.Version
	return rewrite.FileEdit{URI: doc.URI, Version: &version, Replacements: []rewrite.Replacement{{
		Range: fix.edit, ByteRange: fix.bytes, Before: fix.before, After: fix.text}}}
}

// touches reports whether the ranges a and b overlap or touch (a cursor
// at either end of a diagnostic is on it).
func touches(a, b workspace.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// resolveCodeAction answers codeAction/resolve: it fills in the edit of an
// action made by codeActions, after the stale check.
func (s *Server) resolveCodeAction(raw []byte) (any, error) {
	var action protocol.CodeAction
	if err := decodeParams(raw, &action); err != nil {
		return nil, invalidParams("codeAction/resolve: %v", err)
	}
	var data actionData
	if err := json.Unmarshal(action.Data, &data); err != nil || data.ID == "" {
		return nil, invalidParams("codeAction/resolve: the action's data is not a structls rewrite: resolve only actions structls offered")
	}
	if err := checkEditID(data.ID); err != nil {
		return nil, invalidParams("codeAction/resolve: %v", err)
	}
	edit, err := s.resolveEdit(data)
	if err != nil {
		return nil, err
	}
	action.Edit = edit
	return &action, nil
}

// resolveEdit builds the edit of an action on a fresh snapshot, refusing it
// when any file it touches changed since the preview.
func (s *Server) resolveEdit(data actionData) (*protocol.WorkspaceEdit, error) {
	plan := s.edits.Get(data.ID)
	if plan == nil {
		return nil, jsonrpc2.NewError(ContentModified, fmt.Sprintf("the rewrite %s is no longer pending (applied, discarded or dropped): preview it again", data.ID))
	}
	snap := s.currentSnapshot()
	if data.Index != nil {
		one, err := plan.Only(data.URI, *data.Index)
		if err != nil {
			return nil, invalidParams("codeAction/resolve: %v: request code actions again", err)
		}
		plan = one
	}
	if stale := plan.Check(snap); len(stale) > 0 {
		return nil, staleError("codeAction/resolve", &rewrite.StaleError{Files: stale})
	}
	return s.workspaceEdit(plan.Result().Files, snap.Settings), nil
}

// fileOf returns the preview's edits of the document with the URI, or nil.
func fileOf(res *rewrite.Result, docURI string) *rewrite.FileEdit {
	for i := range res.Files {
		if res.Files[i].URI == docURI {
			return &res.Files[i]
		}
	}
	return nil
}

// replacementAt returns the index of the replacement holding the start of
// r (the cursor), or -1. A cursor at a replacement's end counts as in it
// (editors put the cursor after the last character typed or selected),
// unless the next replacement starts there.
func replacementAt(f *rewrite.FileEdit, r protocol.Range) int {
	at := workspaceRange(r).Start
	endsHere := -1
	for i, rep := range f.Replacements {
		switch {
		case !before(at, rep.Range.Start) && before(at, rep.Range.End):
			return i
		case at == rep.Range.End:
			endsHere = i
		}
	}
	return endsHere
}

// before reports whether position a comes before b.
func before(a, b workspace.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// wantsKind reports whether a codeAction request's `only` filter admits kind
// (no filter admits every kind; "refactor" admits "refactor.rewrite").
func wantsKind(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, k := range only {
		if k == kind || len(k) < len(kind) && string(kind[:len(k)+1]) == string(k)+"." {
			return true
		}
	}
	return false
}

// codeActionsAsync runs a code action method off the read loop: resolving
// reads files for the stale check.
func (s *Server) codeActionsAsync(request, work context.Context, method string, params []byte) (any, error) {
	jsonrpc2.Async(request)
	if method == "codeAction/resolve" {
		return s.resolveCodeAction(params)
	}
	return s.codeActions(work, params)
}
