package mcp

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPAddrBindsLocalhost checks a bare port is bound to localhost and
// an explicit host is kept.
func TestHTTPAddrBindsLocalhost(t *testing.T) {
	for in, want := range map[string]string{"8080": "127.0.0.1:8080", ":8080": "127.0.0.1:8080",
		"0.0.0.0:9": "0.0.0.0:9", "localhost:7": "localhost:7", "[::1]:6": "[::1]:6"} {
		if got, err := HTTPAddr(in); err != nil || got != want {
			t.Errorf("HTTPAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := HTTPAddr("not a port"); err == nil {
		t.Error("HTTPAddr accepted a bad address")
	}
}

// TestStreamableHTTP serves two clients over streamable HTTP: both use the
// one warm server.
func TestStreamableHTTP(t *testing.T) {
	h := start(t, map[string]string{"a.go": printlnGo}, harnessOptions{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- h.srv.ServeHTTP(ctx, ln) }()
	for i := range 2 {
		client := sdk.NewClient(&sdk.Implementation{Name: "http-client", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ast_grep", Arguments: map[string]any{"pat": "fmt.Println($A)"}})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*sdk.TextContent).Text
		if res.IsError || !strings.Contains(text, "*6|fmt.Println(1)") {
			t.Errorf("client %d: %q", i, text)
		}
		_ = cs.Close()
	}
	// A browser page on another origin cannot call the tools.
	req, _ := http.NewRequest("POST", "http://"+ln.Addr().String()+"/", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a cross-origin request got %s, want 403 Forbidden", resp.Status)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("ServeHTTP: %v", err)
	}
}
