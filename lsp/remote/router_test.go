package remote

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/internal/testutil"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/lsp"
	lspclient "github.com/structls/structls/lsp/client"
)

// startDaemon runs a shared server on a fresh root of n files, each with
// three calls of f, and returns the root and the socket.
func startDaemon(t *testing.T, n int, idle time.Duration) (root, socket string, done chan error) {
	t.Helper()
	var tree strings.Builder
	for i := range n {
		fmt.Fprintf(&tree, "-- d%d/f%03d.go --\npackage p\n\nfunc g() { f(%d); f(1); f(2) }\n", i%5, i, i)
	}
	root, err := RealRoot(testutil.WriteTree(t, tree.String()))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "r")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket = filepath.Join(dir, "s.sock")
	ready := make(chan struct{})
	done = make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		done <- Serve(ctx, DaemonOptions{Root: root, Socket: socket, Idle: idle, Ready: func() { close(ready) }})
	}()
	t.Cleanup(cancel)
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("the shared server ended: %v", err)
	}
	return root, socket, done
}

// dialEditor connects an editor and initialises it on root.
func dialEditor(t *testing.T, socket, root string) (*lspclient.Editor, error) {
	t.Helper()
	c, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	ed := lspclient.NewEditor(c, lspclient.EditorOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := ed.Initialize(ctx, root); err != nil {
		ed.Close()
		return nil, err
	}
	return ed, nil
}

// TestRouterKeepsConnectionsApart: connections streaming the same query at
// once each get all their own batches and their own answer, whole and in
// order; one that leaves mid-request does not disturb the others; a
// session on another root is refused.
func TestRouterKeepsConnectionsApart(t *testing.T) {
	root, socket, _ := startDaemon(t, 200, time.Minute)
	ctx := context.Background()
	query := astgrep.Query{Pattern: "f($A)", Limit: new(int), Format: "text"}
	var wg sync.WaitGroup
	texts := make([]string, 4)
	errs := make([]error, 4)
	for i := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ed, err := dialEditor(t, socket, root)
			if err != nil {
				errs[i] = err
				return
			}
			defer ed.Close()
			if i == 3 { // leaves at its first batch
				cctx, cancel := context.WithCancel(ctx)
				_, _ = ed.ExecuteCommandBatches(cctx, lsp.CommandAstGrep, query, func(lspclient.PartialBatch) error { cancel(); return nil })
				return
			}
			var text strings.Builder
			raw, err := ed.ExecuteCommandBatches(ctx, lsp.CommandAstGrep, query, func(b lspclient.PartialBatch) error {
				text.WriteString(b.Text)
				return nil
			})
			if err != nil {
				errs[i] = err
				return
			}
			texts[i] = text.String() + string(raw)
			errs[i] = ed.Shutdown(ctx)
		}()
	}
	wg.Wait()
	for i, err := range errs[:3] {
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
	}
	for i, text := range texts[:3] {
		if n := strings.Count(text, "\n*"); n != 600 && !strings.Contains(text, "text cap") {
			t.Errorf("connection %d saw %d matches; want 600 or a capped page", i, n)
		}
		if text != texts[0] {
			t.Errorf("connection %d got another reply than connection 0", i)
		}
	}
	if _, err := dialEditor(t, socket, t.TempDir()); err == nil || !strings.Contains(err.Error(), "this shared server serves") {
		t.Errorf("a session on another root: %v; want refused", err)
	}
}

// TestDaemonExitsWhenIdle: with no connection for its idle timeout the
// server returns and removes its socket.
func TestDaemonExitsWhenIdle(t *testing.T) {
	root, socket, done := startDaemon(t, 1, 300*time.Millisecond)
	ed, err := dialEditor(t, socket, root)
	if err != nil {
		t.Fatal(err)
	}
	_ = ed.Shutdown(context.Background())
	ed.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("still running 60 s after its last connection")
	}
	if _, err := os.Lstat(socket); !os.IsNotExist(err) {
		t.Errorf("the socket is still there: %v", err)
	}
}
