package lsp

import (
	"context"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/structls/structls/atomicwrite"
	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// Structural rewrite (structls.astEdit; its contract: docs/protocol.md): a preview computes
// the edit and writes nothing; the plan waits in s.edits until applyEdit
// (or a code action) applies it, or discardEdit forgets it.
//
// Invariant: an edit is never applied onto text that changed since its
// preview. applyEdit re-checks every file of the plan (open documents by
// version, closed files by a hash of their content) before anything is sent
// or written; the WorkspaceEdit carries the document versions too, so a
// client applying it later refuses a buffer that moved on.

// The rewrite commands.
const (
	CommandAstEdit     = "structls.astEdit"
	CommandApplyEdit   = "structls.applyEdit"
	CommandDiscardEdit = "structls.discardEdit"
)

// ContentModified is the LSP error code of a request whose result is no
// longer valid because the content changed (here: a stale preview).
const ContentModified jsonrpc2.Code = -32801

// RequestFailed is the LSP error code of a well-formed request that failed
// (here: a file could not be written).
const RequestFailed jsonrpc2.Code = -32803

// previewReply is the astEdit result: the preview and its WorkspaceEdit
// (left out, with the files, when the query asks for the text only).
type previewReply struct {
	*rewrite.Result
	Edit *protocol.WorkspaceEdit `json:"edit,omitempty"`
}

// editIDArg is the argument of applyEdit and discardEdit.
type editIDArg struct {
	ID string `json:"id"`
}

// maxEditIDLength is more than the length of any id a preview gets ("edit-"
// and 16 hex digits): a longer one is refused without being echoed whole.
const maxEditIDLength = 64

// checkEditID refuses an id that no preview can have, saying what to pass.
func checkEditID(id string) error {
	switch {
	case id == "":
		return &argumentError{msg: `the argument needs the id of a preview: pass {"id": ID} with the id structls.astEdit returned`}
	case len(id) > maxEditIDLength:
		return &argumentError{msg: fmt.Sprintf("%q… (%d bytes) is not the id of a preview: pass the id structls.astEdit returned, such as edit-0123456789abcdef",
			id[:16], len(id))}
	}
	return nil
}

// decodeEditID reads the id argument of applyEdit and discardEdit.
func decodeEditID(arg []byte) (string, error) {
	var a editIDArg
	if err := decodeArgument(arg, &a); err != nil {
		return "", err
	}
	return a.ID, checkEditID(a.ID)
}

// applyReply is the applyEdit result.
type applyReply struct {
	Applied           bool   `json:"applied"`
	FailureReason     string `json:"failureReason,omitempty"`
	FilesChanged      int    `json:"filesChanged"`
	TotalReplacements int    `json:"totalReplacements"`
}

func (s *Server) runAstEdit(ctx context.Context, env engine.Env, arg []byte) (any, string, error) {
	var q rewrite.Query
	if err := decodeArgument(arg, &q); err != nil {
		return nil, "", err
	}
	plan, err := rewrite.Preview(ctx, env, q)
	if err != nil {
		return nil, "", err
	}
	res := plan.Result()
	if res.TotalReplacements > 0 {
		s.edits.Add(plan)
	} else {
		empty := *res
		empty.ID = "" // nothing to apply: no pending preview is kept
		res = &empty
	}
	reply := &previewReply{Result: res}
	if q.TextOnly {
		textOnly := *res
		textOnly.Files = []rewrite.FileEdit{}
		reply.Result = &textOnly
	} else {
		reply.Edit = s.workspaceEdit(res.Files, env.Snapshot.Settings)
	}
	return reply, fmt.Sprintf("%s in %s (%d searched)", english.Count(res.TotalReplacements, "replacement", "replacements"), english.Count(res.FilesTouched, "file", "files"), res.FilesSearched), nil
}

func (s *Server) runApplyEdit(ctx context.Context, _ engine.Env, arg []byte) (any, string, error) {
	id, err := decodeEditID(arg)
	if err != nil {
		return nil, "", err
	}
	release, err := s.edits.Exclusive(ctx)
	if err != nil {
		return nil, "", err
	}
	defer release()
	// The request's snapshot may predate an apply that ended while this one
	// waited (and the buffers the client changed for it): look again.
	snap := s.currentSnapshot()
	plan, err := s.edits.Take(id)
	if err != nil {
		return nil, "", &argumentError{msg: err.Error()}
	}
	res := plan.Result()
	// A refused plan stays pending (until the store's bounds drop it), so a
	// second try hears the same reason rather than "already applied"; a stale
	// one can never pass the check again.
	if stale := plan.Check(snap); len(stale) > 0 {
		s.edits.Add(plan)
		return nil, "", &rewrite.StaleError{Files: stale}
	}
	reply := &applyReply{FilesChanged: res.FilesTouched, TotalReplacements: res.TotalReplacements}
	if !s.clientAppliesEdits() {
		if err := atomicwrite.WriteFiles(ctx, plan, snap); err != nil {
			s.edits.Add(plan)
			if errors.As(err, new(*rewrite.StaleError)) {
				return nil, "", err
			}
			return nil, "", &writeFailedError{err: err}
		}
		reply.Applied = true
		return reply, "wrote " + english.Count(res.FilesTouched, "file", "files"), nil
	}
	label := editLabel(res)
	applied, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *s.workspaceEdit(res.Files, snap.Settings)})
	switch {
	case ctx.Err() != nil: // cancelled while the editor had the edit: it may still apply it, and the checks guard a retry
		s.edits.Add(plan)
		return nil, "", ctx.Err()
	case err != nil: // eglot answers a declined edit with an error ("User cancelled")
		reply.FailureReason = fmt.Sprintf("the editor did not apply the edit: %v", err)
	case applied == nil:
		reply.FailureReason = "the editor answered workspace/applyEdit without a result, so whether it applied the edit is unknown: check the files, then preview again"
	case !applied.Applied:
		reply.FailureReason = "the editor declined the edit"
		if applied.FailureReason != nil && *applied.FailureReason != "" {
			reply.FailureReason += ": " + *applied.FailureReason
		}
	default:
		reply.Applied = true
		return reply, label, nil
	}
	s.edits.Add(plan) // declined: keep the preview for another try
	reply.FilesChanged, reply.TotalReplacements = 0, 0
	return reply, "not applied", nil
}

func (s *Server) runDiscardEdit(_ context.Context, _ engine.Env, arg []byte) (any, string, error) {
	id, err := decodeEditID(arg)
	if err != nil {
		return nil, "", err
	}
	if err := s.edits.Discard(id); err != nil {
		return nil, "", &argumentError{msg: err.Error()}
	}
	return map[string]bool{"discarded": true}, "discarded", nil
}

// writeFailedError is an apply the server could not write (a read-only
// file, a full disk); the files were left as they were.
type writeFailedError struct{ err error }

func (e *writeFailedError) Error() string { return e.err.Error() }
func (e *writeFailedError) Unwrap() error { return e.err }

// editLabel is the label an editor shows for a rewrite (undo stack, preview).
func editLabel(res *rewrite.Result) string {
	return replacementsLabel(res.TotalReplacements, res.FilesTouched)
}

// currentSnapshot is a snapshot of the workspace as it is now: the open
// documents' latest versions over the disk.
func (s *Server) currentSnapshot() *workspace.Snapshot {
	folders, docs, _ := s.snapshotParts()
	return workspace.NewSnapshot(folders, s.currentSettings(), docs)
}

// clientAppliesEdits reports whether the client declared workspace.applyEdit.
func (s *Server) clientAppliesEdits() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps.applyEdit
}

// staleError maps a refused apply to ContentModified, naming the files.
func staleError(name string, err *rewrite.StaleError) error {
	return jsonrpc2.NewError(ContentModified, fmt.Sprintf("%s: %v", name, err))
}

// recoverApplies finishes or undoes the applies a killed structls process
// left in the folders (atomicwrite.Recover), before any request reads them, and
// tells the user what it did.
func (s *Server) recoverApplies(folders []workspace.Folder) {
	for _, note := range atomicwrite.Recover(atomicwrite.FolderRoots(folders)) {
		s.log.Warn("interrupted apply recovered", zap.String("note", note))
		s.logMessage(protocol.MessageTypeWarning, note)
	}
}

// logDroppedEdit notes a pending preview the store's bounds dropped.
func (s *Server) logDroppedEdit(id, reason string) {
	s.log.Info("pending edit dropped", zap.String("id", id), zap.String("reason", reason))
}
