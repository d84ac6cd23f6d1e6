// Package mcp is structls's Model Context Protocol server (`structls mcp`):
// the structural search, rewrite, X-Ray, outline and rule tools of warm
// structls language servers — one per workspace root, running in this
// process and driven through client.Editor (lsp/client) exactly as the CLI drives its own —
// with replies sized for a model (README.md, "Agents"; docs/cli.md).
package mcp

import (
	"context"
	"fmt"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure a Server.
type Options struct {
	// Roots are the workspace roots, each with its own warm server,
	// started at once. With none, a session uses the roots its client
	// offers (MCP roots), else the current directory, started on first use.
	Roots   []string
	Version string // reported to clients
	// ConfirmEdits says when resolve asks the person through MCP
	// elicitation before applying an edit, as the confirmEdits setting
	// does for editors: "always", "never" or "multiFile" (the default:
	// edits that span several files). Clients without elicitation are
	// never asked.
	ConfirmEdits string
}

// Server is the MCP server: its tools and the warm servers they use.
type Server struct {
	opts  Options
	ctx   context.Context // the warm servers run under it
	mcp   *sdk.Server
	jobs  *jobs
	edits *previews

	mu       sync.Mutex
	roots    []*root                      // started, in order
	sessions map[*sdk.ServerSession]*root // each session's default root, without --root
	closed   bool

	closeOnce sync.Once
}

// New starts a warm server on every root and registers the tools.
func New(ctx context.Context, opts Options) (*Server, error) {
	switch opts.ConfirmEdits {
	case "":
		opts.ConfirmEdits = "multiFile"
	case "always", "never", "multiFile":
	default:
		return nil, fmt.Errorf("confirm-edits %q: use always, never or multiFile", opts.ConfirmEdits)
	}
	s := &Server{opts: opts, ctx: ctx, jobs: newJobs(), edits: newPreviews(), sessions: map[*sdk.ServerSession]*root{}}
	for _, dir := range opts.Roots {
		if _, err := s.rootAt(dir); err != nil {
			s.Close(ctx)
			return nil, err
		}
	}
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "structls", Version: opts.Version}, &sdk.ServerOptions{
		Instructions:            instructions,
		RootsListChangedHandler: s.rootsChanged,
	})
	s.addTools()
	return s, nil
}

// instructions tell the model how the tools fit together.
const instructions = `structls: structural search (ast_grep), regex search (search), structural rewrites (ast_edit previews, resolve applies), X-Ray (regex driver + Starlark evaluator over syntax trees; long runs become jobs), outline, scan (ast-grep YAML rules) and dump_syntax_tree, over warm parsed trees. Replies are capped at 50 KB; a reply that stops early ends with the exact skip=N that continues it.`

// MCP returns the MCP server, to run over a transport.
func (s *Server) MCP() *sdk.Server { return s.mcp }

// Close stops the jobs and shuts the warm servers down.
func (s *Server) Close(ctx context.Context) {
	s.closeOnce.Do(func() {
		s.jobs.stopAll()
		s.mu.Lock()
		s.closed = true
		roots := s.roots
		s.mu.Unlock()
		for _, r := range roots {
			r.close(ctx)
		}
	})
}
