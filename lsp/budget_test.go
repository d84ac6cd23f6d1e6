package lsp

import (
	"context"
	"testing"

	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/syntax"
)

// TestParseOptionsArePerServer: the parse options (budget, arena keep,
// freeing the heap before lone parses) are options of each server,
// carried by the context all its work derives from, so two servers in one
// process (the MCP server keeps one per workspace) parse under their own,
// and one that sets none has the defaults.
func TestParseOptionsArePerServer(t *testing.T) {
	servers := make(chan *Server, 2)
	testHookServe = func(s *Server) { servers <- s }
	defer func() { testHookServe = nil }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	small := syntax.ParseOptions{Budget: 1 << 20, ArenaKeep: 4 << 20, FreeHeapBeforeLoneParses: true}
	for _, o := range []syntax.ParseOptions{small, {}} {
		ed, wait := StartInProcess(ctx, Options{Parse: o}, client.EditorOptions{})
		defer func() { ed.Close(); wait() }()
	}
	got := map[syntax.ParseOptions]bool{}
	for range 2 {
		got[syntax.ParseOptionsOf((<-servers).ctx)] = true
	}
	defaults := syntax.ParseOptions{Budget: syntax.DefaultParseBudget, ArenaKeep: syntax.DefaultArenaKeep}
	if !got[small] || !got[defaults] {
		t.Errorf("the two servers parse under %v; want %+v (set) and %+v (the defaults)", got, small, defaults)
	}
}
