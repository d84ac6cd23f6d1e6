package lsp

import (
	"context"
	"testing"

	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/syntax"
)

// TestParseBudgetIsPerServer: the parse budget is an option of each
// server, carried by the context all its work derives from, so two
// servers in one process (the MCP server keeps one per workspace) parse
// under their own budgets, and one that sets none has the default.
func TestParseBudgetIsPerServer(t *testing.T) {
	servers := make(chan *Server, 2)
	testHookServe = func(s *Server) { servers <- s }
	defer func() { testHookServe = nil }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, budget := range []int64{1 << 20, 0} {
		ed, wait := StartInProcess(ctx, Options{ParseBudget: budget}, client.EditorOptions{})
		defer func() { ed.Close(); wait() }()
	}
	got := map[int64]bool{}
	for range 2 {
		got[syntax.ParseBudgetOf((<-servers).ctx)] = true
	}
	if !got[1<<20] || !got[syntax.DefaultParseBudget] {
		t.Errorf("the two servers parse under budgets %v; want 1 MiB (set) and %d (the default)", got, syntax.DefaultParseBudget)
	}
}
