package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestClientRoots starts the server without --root: a session works on
// the first root its client offers (no server starts on the current
// directory), and a call naming the other root works there.
func TestClientRoots(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, dir := range dirs {
		src := strings.ReplaceAll(printlnGo, "fmt.Println(1)", "fmt.Println(\"root"+string(rune('A'+i))+"\")")
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := New(ctx, Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close(context.Background())
	client := sdk.NewClient(&sdk.Implementation{Name: "roots-client", Version: "1"}, nil)
	client.AddRoots(&sdk.Root{URI: "file://" + filepath.ToSlash(dirs[0])}, &sdk.Root{URI: "file://" + filepath.ToSlash(dirs[1])})
	st, ct := sdk.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	grep := func(args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ast_grep", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*sdk.TextContent).Text
		if res.IsError {
			t.Fatalf("ast_grep %v: %s", args, text)
		}
		return text
	}
	if got := grep(map[string]any{"pat": "fmt.Println($A)"}); !strings.Contains(got, `rootA`) || strings.Contains(got, "rootB") {
		t.Errorf("the session's default root is not the client's first: %q", got)
	}
	if got := grep(map[string]any{"pat": "fmt.Println($A)", "root": dirs[1]}); !strings.Contains(got, `rootB`) {
		t.Errorf("naming the second root: %q", got)
	}
	srv.mu.Lock()
	started := len(srv.roots)
	srv.mu.Unlock()
	if started != 2 {
		t.Errorf("%d warm servers, want 2 (the client's roots, not the current directory)", started)
	}
}
