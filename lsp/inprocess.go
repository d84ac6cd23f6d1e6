package lsp

import (
	"context"
	"net"

	"github.com/structls/structls/lsp/client"
)

// StartInProcess runs a server in this process, connected to a new
// client.Editor over a pipe (docs/cli.md: the CLI and the server share one
// code path). wait returns the server's exit code once the session ends.
func StartInProcess(ctx context.Context, opts Options, eopts client.EditorOptions) (ed *client.Editor, wait func() int) {
	serverSide, clientSide := net.Pipe()
	done := make(chan int, 1)
	go func() { done <- Serve(ctx, serverSide, opts) }()
	return client.NewEditor(clientSide, eopts), func() int { return <-done }
}
