// Package mcp is structls's Model Context Protocol server (`structls mcp`):
// the structural search, rewrite, X-Ray, outline and rule tools of warm
// structls language servers — one per workspace root, running in this
// process and driven through lsp.Editor exactly as the CLI drives its own —
// with replies sized for a model (README.md, "Agents").
package mcp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure a Server.
type Options struct {
	// Roots are the workspace roots, each with its own warm server; none
	// means the current directory.
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
	roots []*root
	mcp   *sdk.Server
	jobs  *jobs
	edits *previews

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
	if len(opts.Roots) == 0 {
		opts.Roots = []string{"."}
	}
	s := &Server{opts: opts, jobs: newJobs(), edits: newPreviews()}
	for _, dir := range opts.Roots {
		r, err := startRoot(ctx, dir, opts.Version)
		if err != nil {
			s.Close(ctx)
			return nil, err
		}
		s.roots = append(s.roots, r)
	}
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "structls", Version: opts.Version}, &sdk.ServerOptions{
		Instructions: instructions,
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
		for _, r := range s.roots {
			r.close(ctx)
		}
	})
}

// rootFor picks the root a tool call names (a root's directory, or its
// base name), or the first root when it names none.
func (s *Server) rootFor(name string) (*root, error) {
	if name == "" {
		return s.roots[0], nil
	}
	abs, _ := filepath.Abs(name)
	var dirs []string
	for _, r := range s.roots {
		if r.dir == abs || filepath.Base(r.dir) == name {
			return r, nil
		}
		dirs = append(dirs, r.dir)
	}
	return nil, &toolError{msg: fmt.Sprintf("root %q is not one of this server's workspace roots: use one of %s (or leave root out for the first)",
		name, strings.Join(dirs, ", "))}
}
