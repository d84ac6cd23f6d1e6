package mcp

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Which root a tool call works on: the one it names (root), else the
// first --root, else its session's — the first of the roots the client
// offers (MCP roots, asked for on the session's first call that needs a
// root), or the current directory when it offers none.

// rootsID names the roots request in a call's input requests.
const rootsID = "roots"

// maxSessions bounds the sessions whose roots are remembered; past it they
// are forgotten and asked again.
const maxSessions = 1024

// rootFor picks the root of a tool call. A call that must first learn its
// client's roots returns a needInput error, and is called again with them.
func (s *Server) rootFor(req *sdk.CallToolRequest, name string) (*root, error) {
	if name != "" {
		return s.namedRoot(name)
	}
	s.mu.Lock()
	if len(s.opts.Roots) > 0 {
		r := s.roots[0]
		s.mu.Unlock()
		return r, nil
	}
	var session *sdk.ServerSession
	if req != nil {
		session = req.Session
	}
	r, known := s.sessions[session]
	s.mu.Unlock()
	if known {
		return r, nil
	}
	dirs := []string{"."}
	if offersRoots(session) {
		res, answered := req.Params.InputResponses[rootsID].(*sdk.ListRootsResult)
		if !answered {
			return nil, &needInput{requests: sdk.InputRequestMap{rootsID: &sdk.ListRootsParams{}}}
		}
		if offered := fileRoots(res); len(offered) > 0 {
			dirs = offered
		}
	}
	var first *root
	for _, dir := range dirs {
		r, err := s.rootAt(dir)
		if err != nil {
			return nil, &toolError{msg: fmt.Sprintf("the client's root %s: %v", dir, err)}
		}
		if first == nil {
			first = r
		}
	}
	s.mu.Lock()
	if len(s.sessions) >= maxSessions {
		clear(s.sessions)
	}
	s.sessions[session] = first
	s.mu.Unlock()
	return first, nil
}

// offersRoots reports whether a session's client declared roots.
func offersRoots(session *sdk.ServerSession) bool {
	if session == nil {
		return false
	}
	init := session.InitializeParams()
	return init != nil && init.Capabilities != nil && init.Capabilities.RootsV2 != nil
}

// fileRoots returns the directories of a client's file:// roots.
func fileRoots(res *sdk.ListRootsResult) []string {
	var dirs []string
	for _, r := range res.Roots {
		u, err := url.Parse(r.URI)
		if err == nil && u.Scheme == "file" && u.Path != "" {
			dirs = append(dirs, filepath.FromSlash(u.Path))
		}
	}
	return dirs
}

// rootsChanged forgets a session's roots when its client's change: the
// next call asks again.
func (s *Server) rootsChanged(_ context.Context, req *sdk.RootsListChangedRequest) {
	s.mu.Lock()
	delete(s.sessions, req.Session)
	s.mu.Unlock()
}

// rootAt returns the warm server of a directory, starting it when none
// runs yet.
func (s *Server) rootAt(dir string) (*root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("the server is shutting down")
	}
	for _, r := range s.roots {
		if r.dir == abs {
			return r, nil
		}
	}
	r, err := startRoot(s.ctx, abs, s.opts.Version)
	if err != nil {
		return nil, err
	}
	s.roots = append(s.roots, r)
	return r, nil
}

// namedRoot returns the running root a call names by its directory or
// base name.
func (s *Server) namedRoot(name string) (*root, error) {
	abs, _ := filepath.Abs(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	var dirs []string
	for _, r := range s.roots {
		if r.dir == abs || filepath.Base(r.dir) == name {
			return r, nil
		}
		dirs = append(dirs, r.dir)
	}
	return nil, &toolError{msg: fmt.Sprintf("root %q is not one of this server's workspace roots: use one of %s (or leave root out)",
		name, strings.Join(dirs, ", "))}
}
