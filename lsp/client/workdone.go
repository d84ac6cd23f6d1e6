package client

import (
	"context"
	"encoding/json"
	"slices"
)

// ExecuteCommandWorkDone runs a command with the caller's own
// workDoneToken, so the caller can follow its progress (the $/progress
// notifications EditorOptions.OnNotify sees carry the token) and stop it
// with CancelWorkDone, which — unlike a context cancelled under Call —
// reaches the server and, for structls.xray, gets the matches found so far
// as the reply. With onBatch the command's partial results stream to it,
// as with ExecuteCommandBatches. The progress events recorded under the
// token are forgotten when the command returns, so a long-lived editor
// does not grow with the commands it runs.
func (e *Editor) ExecuteCommandWorkDone(ctx context.Context, command string, arg any, workDoneToken string,
	onBatch func(PartialBatch) error) (json.RawMessage, error) {
	defer e.forgetProgress(workDoneToken)
	var receiver *partialReceiver
	if onBatch != nil {
		receiver = &partialReceiver{command: command, onBatch: onBatch}
	}
	return e.executeStreaming(ctx, command, arg, map[string]any{"workDoneToken": workDoneToken}, receiver)
}

// CancelWorkDone asks the server to stop the work reported under token
// (window/workDoneProgress/cancel). The server honours it once the work's
// progress has begun (see lsp/progress.go): a caller that cancels earlier
// sends it again when the begin arrives.
func (e *Editor) CancelWorkDone(ctx context.Context, token string) error {
	return e.Notify(ctx, "window/workDoneProgress/cancel", map[string]string{"token": token})
}

// forgetProgress drops the recorded progress events of a string token.
func (e *Editor) forgetProgress(token string) {
	raw, _ := json.Marshal(token)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.progress = slices.DeleteFunc(e.progress, func(ev ProgressEvent) bool { return ev.Token == string(raw) })
}
