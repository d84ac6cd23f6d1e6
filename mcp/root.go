package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
)

// root is one workspace root and its warm language server: a structls
// server running in this process, driven through a client.Editor exactly as
// the CLI drives it, kept for the life of the MCP server so that its parse
// cache and background parsing serve every tool call.
type root struct {
	dir    string // absolute
	editor *client.Editor
	wait   func() int

	nextToken atomic.Int64
	mu        sync.Mutex
	works     map[string]*work // by workDoneToken
}

// work is one command in flight: the progress it reports goes to report,
// and a cancel asked before its progress began is sent once it begins.
type work struct {
	report    func(message string, pct, total float64)
	begun     bool
	cancelled bool
}

// startRoot starts a warm server on dir.
func startRoot(ctx context.Context, dir, version string) (*root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("workspace root %s is not a directory: pass an existing directory to --root", dir)
	}
	r := &root{dir: abs, works: map[string]*work{}}
	ed, wait := lsp.StartInProcess(ctx, lsp.Options{Version: version}, client.EditorOptions{
		// The server writes applied edits itself, checked against the preview.
		ApplyEdits: client.ApplyEditsUnsupported,
		OnNotify:   r.notified,
	})
	if _, err := ed.Initialize(ctx, abs); err != nil {
		_ = ed.Close()
		return nil, fmt.Errorf("starting the server on %s: %w", abs, err)
	}
	r.editor, r.wait = ed, wait
	return r, nil
}

// close shuts the server down.
func (r *root) close(ctx context.Context) {
	_ = r.editor.Shutdown(ctx)
	r.wait()
	_ = r.editor.Close()
}

// progressValue is the part of a $/progress notification a work reads.
type progressValue struct {
	Token json.RawMessage `json:"token"`
	Value struct {
		Kind       string `json:"kind"`
		Message    string `json:"message"`
		Percentage *int   `json:"percentage"`
	} `json:"value"`
}

// notified routes the server's work-done progress to the work it belongs to.
func (r *root) notified(method string, params json.RawMessage) {
	if method != "$/progress" {
		return
	}
	var p progressValue
	if json.Unmarshal(params, &p) != nil {
		return
	}
	var token string
	if json.Unmarshal(p.Token, &token) != nil {
		return
	}
	r.mu.Lock()
	w := r.works[token]
	var cancelNow bool
	if w != nil && p.Value.Kind == "begin" {
		w.begun = true
		cancelNow = w.cancelled
	}
	r.mu.Unlock()
	if w == nil {
		return
	}
	if cancelNow {
		go r.editor.CancelWorkDone(context.Background(), token)
	}
	if p.Value.Kind == "report" && w.report != nil {
		pct := -1.0
		if p.Value.Percentage != nil {
			pct = float64(*p.Value.Percentage)
		}
		w.report(p.Value.Message, pct, 100)
	}
}

// call is one command run on a root.
type call struct {
	command string
	arg     any
	// report, when set, hears the command's progress: a message ("12/40
	// files") and a percentage (-1 while the total is unknown).
	report func(message string, pct, total float64)
	// onBatch, when set, gets the command's partial results.
	onBatch func(client.PartialBatch) error
	// stop, when set, is closed to stop the command the way the progress
	// Cancel button does: the server answers with what it has (X-Ray).
	stop <-chan struct{}
}

// run runs a command. When ctx ends, the server is asked to stop the work
// (the reply is then an error); when c.stop closes, too, but the reply is
// awaited.
func (r *root) run(ctx context.Context, c call) (json.RawMessage, error) {
	token := "mcp-" + strconv.FormatInt(r.nextToken.Add(1), 10)
	w := &work{report: c.report}
	r.mu.Lock()
	r.works[token] = w
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.works, token)
		r.mu.Unlock()
	}()
	cancel := func() {
		r.mu.Lock()
		w.cancelled = true
		begun := w.begun
		r.mu.Unlock()
		if begun {
			_ = r.editor.CancelWorkDone(context.Background(), token)
		}
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-ctx.Done():
			cancel()
		case <-c.stop:
			cancel()
		}
	}()
	// The call itself outlives a stop: its reply holds what was found.
	raw, err := r.editor.ExecuteCommandWorkDone(context.WithoutCancel(ctx), c.command, c.arg, token, c.onBatch)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, commandError(err)
	}
	return raw, nil
}

// runInto runs a command and decodes its result into out.
func (r *root) runInto(ctx context.Context, c call, out any) error {
	raw, err := r.run(ctx, c)
	if err != nil {
		return err
	}
	if err := jsonv2.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("decoding the %s result: %w", c.command, err)
	}
	return nil
}

// toolError is an error a tool reports to the model (isError), in words
// the model can act on; code is the server's error code, when it has one.
type toolError struct {
	msg  string
	code int
}

func (e *toolError) Error() string { return e.msg }

// Codes of the server's errors that mean something to a tool's caller.
const (
	codeRequestCancelled = -32800
	codeContentModified  = -32801
)

// commandError turns a server error into the message a model reads.
func commandError(err error) error {
	switch client.ErrorCode(err) {
	case codeRequestCancelled:
		return &toolError{msg: "cancelled: the work was stopped before it finished"}
	case 0:
		return err
	}
	var te *toolError
	if errors.As(err, &te) {
		return err
	}
	return &toolError{msg: err.Error(), code: client.ErrorCode(err)}
}
