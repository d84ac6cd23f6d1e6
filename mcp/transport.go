package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one client over in and out (newline-delimited JSON-RPC,
// the MCP stdio transport) until it disconnects or ctx ends; a line that
// is not a message is answered with an error, never the session's end,
// and a client that floods it waits (stdio.go).
func (s *Server) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	guard := newStdioGuard(in, out)
	err := s.mcp.Run(ctx, &sdk.IOTransport{Reader: guard, Writer: guard.out})
	if ctx.Err() != nil || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// HTTPAddr is the address --http listens on: a bare port (":8080",
// "8080") is bound to localhost, so that only this machine's agents reach
// the server; an explicit host is taken as given.
func HTTPAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if _, perr := net.LookupPort("tcp", addr); perr != nil {
			return "", fmt.Errorf("--http %q: give a port (8080), :PORT or HOST:PORT", addr)
		}
		host, port = "", addr
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// ServeHTTP serves clients over MCP's streamable HTTP transport on ln (at
// any path) until ctx ends; every client shares the warm servers.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener) error {
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.mcp }, &sdk.StreamableHTTPOptions{
		SessionTimeout:               30 * time.Minute, // an agent gone without closing its session
		PropagateRequestCancellation: true,             // a client gone mid-request stops its work
	})
	// A web page the person visits must not drive the tools: cross-origin
	// browser requests are refused (and the SDK refuses a localhost
	// connection with another Host header, against DNS rebinding).
	srv := &http.Server{Handler: http.NewCrossOriginProtection().Handler(handler), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
