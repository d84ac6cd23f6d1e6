package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/structls/structls/mcp"
)

// mcpCmd runs the Model Context Protocol server: the tools of a warm
// server per workspace root, over stdio or streamable HTTP (README.md,
// "Agents").
func mcpCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("mcp", stdout, stderr)
	var roots multiFlag
	fs.Var(&roots, "root", "a workspace root, with its own warm server (repeatable; default: the roots the client offers, else the current directory)")
	httpAddr := fs.String("http", "", "serve streamable HTTP on ADDR (a bare port binds to localhost) instead of stdio")
	confirm := fs.String("confirm-edits", "multiFile", "when resolve asks the person (MCP elicitation) before applying: always, never, multiFile")
	if err := fs.Parse(args); err != nil {
		return exitError, err
	}
	if fs.NArg() > 0 {
		return exitError, fmt.Errorf("mcp takes no arguments (got %q): name workspace roots with --root", fs.Args())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { // a server blocked writing to a client that stopped reading must still end
		<-ctx.Done()
		time.Sleep(signalGrace)
		fmt.Fprintf(stderr, "structls mcp: still busy %v after the signal (a client that stopped reading?): exiting\n", signalGrace)
		os.Exit(exitError)
	}()
	var ln net.Listener
	if *httpAddr != "" {
		addr, err := mcp.HTTPAddr(*httpAddr)
		if err != nil {
			return exitError, err
		}
		if ln, err = net.Listen("tcp", addr); err != nil {
			return exitError, fmt.Errorf("--http: %w", err)
		}
		defer ln.Close()
	}
	s, err := mcp.New(ctx, mcp.Options{Roots: roots, Version: version, ConfirmEdits: *confirm})
	if err != nil {
		return exitError, err
	}
	defer s.Close(context.Background())
	if ln != nil {
		fmt.Fprintf(stderr, "structls mcp: serving streamable HTTP on http://%s/\n", ln.Addr())
		return exitFound, s.ServeHTTP(ctx, ln)
	}
	return exitFound, s.ServeStdio(ctx, io.NopCloser(stdin), nopWriteCloser{stdout})
}

// signalGrace is how long the server may take to end its work once
// interrupted or terminated.
const signalGrace = 5 * time.Second

// nopWriteCloser lets the server close stdout's writer without closing stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
