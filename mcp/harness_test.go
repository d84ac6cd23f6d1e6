package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	_ "github.com/structls/structls/lang/grammars" // every language, as the structls binary has
)

// harness is a Server on a temporary workspace with a client connected
// over the SDK's in-memory transports.
type harness struct {
	t   *testing.T
	dir string
	srv *Server
	cs  *sdk.ClientSession

	mu       sync.Mutex
	progress []*sdk.ProgressNotificationParams
}

// harnessOptions tune the server and the client.
type harnessOptions struct {
	confirmEdits string
	elicit       func(*sdk.ElicitRequest) (*sdk.ElicitResult, error) // nil: the client has no elicitation
}

// start writes files into a temporary root and connects a client.
func start(t *testing.T, files map[string]string, opts harnessOptions) *harness {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	srv, err := New(ctx, Options{Roots: []string{dir}, Version: "test", ConfirmEdits: opts.confirmEdits})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, dir: dir, srv: srv}
	copts := &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			h.mu.Lock()
			h.progress = append(h.progress, req.Params)
			h.mu.Unlock()
		},
	}
	if opts.elicit != nil {
		copts.ElicitationHandler = func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return opts.elicit(req)
		}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "1"}, copts)
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.cs = cs
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
		srv.Close(context.Background())
	})
	return h
}

// reply is a tool call's result, read.
type reply struct {
	text    string
	summary map[string]any
	isError bool
}

// call calls a tool and fails the test on a protocol error.
func (h *harness) call(name string, args any) reply {
	h.t.Helper()
	return h.callCtx(context.Background(), name, args, nil)
}

// callCtx calls a tool under ctx, with a progress token when given one.
func (h *harness) callCtx(ctx context.Context, name string, args any, progressToken any) reply {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	res, err := h.cs.CallTool(ctx, callParams(name, args, progressToken))
	if err != nil {
		h.t.Fatalf("%s: %v", name, err)
	}
	var r reply
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			r.text += tc.Text
		}
	}
	r.isError = res.IsError
	if res.StructuredContent != nil {
		raw, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(raw, &r.summary)
	}
	return r
}

// ok calls a tool and fails the test when it reports an error.
func (h *harness) ok(name string, args any) reply {
	h.t.Helper()
	r := h.call(name, args)
	if r.isError {
		h.t.Fatalf("%s %v: error %s", name, args, r.text)
	}
	return r
}

// nextSkip returns the reply's nextSkip, or -1 when it has none.
func (r reply) nextSkip() int {
	if n, ok := r.summary["nextSkip"].(float64); ok {
		return int(n)
	}
	return -1
}

// read returns a file of the root.
func (h *harness) read(name string) string {
	h.t.Helper()
	b, err := os.ReadFile(filepath.Join(h.dir, name))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

// progressCount counts the progress notifications received with token.
func (h *harness) progressCount(token any) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, p := range h.progress {
		if p.ProgressToken == token {
			n++
		}
	}
	return n
}

// lines counts the lines of text that start with prefix.
func lines(text, prefix string) int {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// callParams makes the params of a tool call, with a progress token.
func callParams(name string, args any, progressToken any) *sdk.CallToolParams {
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	if progressToken != nil {
		params.Meta = sdk.Meta{"progressToken": progressToken}
	}
	return params
}
