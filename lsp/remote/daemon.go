package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/workspace"
)

// DefaultIdleTimeout is how long a shared server waits, with no
// connection, before it exits.
const DefaultIdleTimeout = 10 * time.Minute

// firstConnectionWait is the least a shared server waits for its first
// connection, whatever its idle timeout: the process that started it
// connects within milliseconds, and a server with an idle timeout shorter
// than that (STRUCTLS_REMOTE_IDLE=5ms) left before it came.
const firstConnectionWait = 10 * time.Second

// DaemonOptions configure a shared server.
type DaemonOptions struct {
	Root   string        // the workspace root, its real path
	Socket string        // where to listen
	Idle   time.Duration // exit after this long without a connection; 0: DefaultIdleTimeout
	Server lsp.Options   // the server's options (its version, its log)
	// Ready, when set, is called once the socket listens.
	Ready func()
}

// Serve runs a shared server: one long-lived language server on the root,
// and the socket that CLI processes connect to. It returns once no
// connection came for the idle timeout (for the first connection, at
// least firstConnectionWait), or ctx ends, and removes the socket it made.
func Serve(ctx context.Context, opts DaemonOptions) error {
	if opts.Idle <= 0 {
		opts.Idle = DefaultIdleTimeout
	}
	ln, err := listen(opts.Socket)
	if err != nil {
		return err
	}
	defer func() {
		// Remove the socket only while it is still this server's: a
		// replacement may have taken the name since.
		if info, err := os.Stat(opts.Socket); err == nil && os.SameFile(info, ln.info) {
			_ = os.Remove(opts.Socket)
		}
	}()
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait() // last: the connections end once ctx is cancelled
	defer cancel()
	serverSide, daemonSide := net.Pipe()
	served := make(chan struct{})
	go func() {
		lsp.Serve(ctx, serverSide, opts.Server)
		close(served)
	}()
	r := newRouter(frames(daemonSide))
	go r.readBackend()
	if err := r.initialize(ctx, opts.Root); err != nil {
		ln.Close()
		cancel()
		return fmt.Errorf("starting the shared server on %s: %w", opts.Root, err)
	}
	if opts.Ready != nil {
		opts.Ready()
	}
	conns := make(chan net.Conn)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(conns)
				return
			}
			conns <- c
		}
	}()
	defer ln.Close()
	idle := time.NewTimer(max(opts.Idle, firstConnectionWait))
	defer idle.Stop()
	active := 0
	ended := make(chan struct{})
	for {
		select {
		case c, ok := <-conns:
			if !ok {
				return nil
			}
			active++
			idle.Stop()
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.serveClient(ctx, c)
				select {
				case ended <- struct{}{}:
				case <-ctx.Done():
				}
			}()
		case <-ended:
			if active--; active == 0 {
				idle.Reset(opts.Idle)
			}
		case <-idle.C:
			return nil
		case <-served:
			return errors.New("the shared server's language server ended")
		case <-ctx.Done():
			return nil
		}
	}
}

// listener is a Unix socket listener and the socket file it made.
type listener struct {
	net.Listener
	info os.FileInfo
}

// listen listens on the socket path, readable and writable by this user
// only (the directory is private already: this is a second lock). The
// socket is made under a temporary name, given its mode, and only then
// linked to its name: a process waiting for the server to listen (Dial)
// refuses a socket open to others, and must never see this one with the
// mode the umask gave it. Like listening on the name itself, the link
// fails when something is there already.
func listen(path string) (*listener, error) {
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf("t%d", os.Getpid()))
	_ = os.Remove(tmp) // left by a server of the same pid that was killed
	ln, err := net.Listen("unix", tmp)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", path, err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	defer os.Remove(tmp)
	if err := os.Chmod(tmp, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	if err := os.Link(tmp, path); err != nil {
		ln.Close()
		return nil, fmt.Errorf("listening on %s: %w", path, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		ln.Close()
		return nil, err
	}
	return &listener{Listener: ln, info: info}, nil
}

// backendInitialize is the initialize request of the shared server: the
// client capabilities of the CLI's editor, without workspace/applyEdit
// (the server writes the files of an applied edit itself, as for the CLI's
// edit and scan --apply) and without dynamic registrations, progress or
// configuration requests, which no CLI call needs.
func backendInitialize(root string) json.RawMessage {
	params := map[string]any{
		"processId": os.Getpid(),
		"capabilities": map[string]any{
			"window": map[string]any{"workDoneProgress": false},
			"workspace": map[string]any{"configuration": false, "workspaceFolders": true, "applyEdit": false,
				"didChangeWatchedFiles": map[string]any{"dynamicRegistration": false},
				"workspaceEdit":         map[string]any{"documentChanges": true}},
			"textDocument": map[string]any{"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}},
		},
		"workspaceFolders": []map[string]string{{"uri": workspace.PathToURI(root), "name": root}},
	}
	raw, _ := json.Marshal(params)
	return raw
}

// frameStream reads and writes whole JSON-RPC frames (LSP base protocol).
type frameStream interface {
	ReadFrame(ctx context.Context) ([]byte, int64, error)
	WriteFrame(ctx context.Context, data []byte) (int64, error)
	Close() error
}

// frames wraps a connection in the LSP framing.
func frames(c net.Conn) frameStream {
	return jsonrpc2.NewHeaderStream(c).(frameStream)
}
