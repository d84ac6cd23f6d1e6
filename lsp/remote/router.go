package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"sync"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/workspace"
)

// The router: many CLI connections, one language server. Each connection
// is an LSP session as the CLI's editor speaks it (initialize, commands,
// shutdown, exit); the router answers the lifecycle itself — the server
// was initialised once, on the root — and passes every other request to
// the server under an id of its own, with its partial-result and progress
// tokens renamed, so that answers and streamed batches go back to the
// connection that asked, and nothing of one connection reaches another.
// Requests the server makes of its client (progress creation,
// configuration) are answered by the router; notifications no request
// owns (logs, the background parse's progress) are dropped. When a connection ends,
// its requests still running are cancelled and the edit previews it made
// and did not apply are discarded: the next call finds the server as if
// that one had never been.

// envelope is a JSON-RPC message, its parts left raw.
type envelope struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// pending is a request passed to the server: whose it is and its id there.
type pending struct {
	client  *client         // nil: the router's own
	id      json.RawMessage // the client's id
	command string          // the command of a workspace/executeCommand
	reply   chan envelope   // the router's own requests: where the answer goes
}

// client is one CLI connection.
type client struct {
	n        int
	out      frameStream
	calls    map[string]int64 // the client's request id (as sent) → the server's
	tokens   []string         // tokens renamed for it
	previews map[string]bool  // edit previews it made, not yet applied or discarded
	gone     bool
}

type router struct {
	backend frameStream
	root    string

	mu      sync.Mutex
	next    int64
	pending map[int64]*pending
	tokens  map[string]tokenOwner // renamed token → its client and the token it sent
	clients int
	init    json.RawMessage // the server's initialize result
}

type tokenOwner struct {
	client *client
	token  json.RawMessage
}

func newRouter(backend frameStream) *router {
	return &router{backend: backend, pending: map[int64]*pending{}, tokens: map[string]tokenOwner{}}
}

// initialize initialises the server on root, once.
func (r *router) initialize(ctx context.Context, root string) error {
	r.root = root
	res, err := r.call(ctx, "initialize", backendInitialize(root))
	if err != nil {
		return err
	}
	r.init = res
	return r.send(ctx, r.backend, envelope{Method: "initialized", Params: json.RawMessage(`{}`)})
}

// call sends the router's own request to the server and waits for its answer.
func (r *router) call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	reply := make(chan envelope, 1)
	id := r.register(&pending{reply: reply})
	if err := r.send(ctx, r.backend, envelope{ID: id, Method: method, Params: params}); err != nil {
		return nil, err
	}
	select {
	case env := <-reply:
		if len(env.Error) > 0 {
			return nil, fmt.Errorf("%s: %s", method, env.Error)
		}
		return env.Result, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// register records a request passed to the server and returns its id there.
func (r *router) register(p *pending) json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	r.pending[r.next] = p
	if p.client != nil {
		p.client.calls[string(p.id)] = r.next
	}
	return json.RawMessage(strconv.FormatInt(r.next, 10))
}

// send writes a message.
func (r *router) send(ctx context.Context, to frameStream, env envelope) error {
	data, err := encode(env)
	if err != nil {
		return err
	}
	_, err = to.WriteFrame(ctx, data)
	return err
}

// encode writes a message, its raw parts as they are.
func encode(env envelope) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0"`)
	field := func(name string, raw json.RawMessage) {
		if len(raw) > 0 {
			b.WriteString(`,"` + name + `":`)
			b.Write(raw)
		}
	}
	field("id", env.ID)
	if env.Method != "" {
		m, _ := json.Marshal(env.Method)
		field("method", m)
	}
	field("params", env.Params)
	if env.Method == "" && len(env.Error) == 0 && len(env.Result) == 0 {
		env.Result = json.RawMessage("null") // a response always has a result or an error
	}
	field("result", env.Result)
	field("error", env.Error)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// readBackend passes the server's messages on until its stream ends.
func (r *router) readBackend() {
	ctx := context.Background()
	for {
		frame, _, err := r.backend.ReadFrame(ctx)
		if err != nil {
			r.failAll()
			return
		}
		var env envelope
		if err := json.Unmarshal(frame, &env); err != nil {
			continue
		}
		switch {
		case env.Method == "" && len(env.ID) > 0:
			r.answered(ctx, env)
		case env.Method != "" && len(env.ID) > 0:
			r.answerServer(ctx, env)
		case env.Method == "$/progress":
			r.progress(ctx, env)
		}
	}
}

// answered passes the server's answer to whoever asked.
func (r *router) answered(ctx context.Context, env envelope) {
	id, err := strconv.ParseInt(string(env.ID), 10, 64)
	if err != nil {
		return
	}
	r.mu.Lock()
	p := r.pending[id]
	delete(r.pending, id)
	gone := p != nil && p.client != nil && p.client.gone
	if p != nil && p.client != nil {
		delete(p.client.calls, string(p.id))
		if p.command == lsp.CommandAstEdit && len(env.Error) == 0 && !p.client.gone {
			var preview struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(env.Result, &preview) == nil && preview.ID != "" {
				p.client.previews[preview.ID] = true
			}
		}
	}
	r.mu.Unlock()
	switch {
	case p == nil:
	case p.client == nil:
		if p.reply != nil {
			p.reply <- env
		}
	case !gone:
		env.ID = p.id
		_ = r.send(ctx, p.client.out, env)
	}
}

// answerServer answers a request the server makes of its client.
func (r *router) answerServer(ctx context.Context, env envelope) {
	reply := envelope{ID: env.ID, Result: json.RawMessage("null")}
	switch env.Method {
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(env.Params, &p)
		nulls := make([]json.RawMessage, len(p.Items))
		for i := range nulls {
			nulls[i] = json.RawMessage("null")
		}
		reply.Result, _ = json.Marshal(nulls)
	case "workspace/applyEdit":
		reply.Result = json.RawMessage(`{"applied":false,"failureReason":"the shared server's clients apply no edits"}`)
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability":
	default:
		reply = envelope{ID: env.ID, Error: json.RawMessage(`{"code":-32601,"message":"not handled by the shared server's router"}`)}
	}
	_ = r.send(ctx, r.backend, reply)
}

// progress passes a $/progress to the client whose token it carries.
func (r *router) progress(ctx context.Context, env envelope) {
	var p struct {
		Token json.RawMessage `json:"token"`
		Value json.RawMessage `json:"value"`
	}
	if json.Unmarshal(env.Params, &p) != nil {
		return
	}
	r.mu.Lock()
	owner, ok := r.tokens[string(p.Token)]
	ok = ok && !owner.client.gone
	r.mu.Unlock()
	if !ok {
		return
	}
	params, _ := json.Marshal(map[string]json.RawMessage{"token": owner.token, "value": p.Value})
	_ = r.send(ctx, owner.client.out, envelope{Method: "$/progress", Params: params})
}

// failAll answers every request waiting on a server that has gone.
func (r *router) failAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, p := range r.pending {
		delete(r.pending, id)
		if p.reply != nil {
			p.reply <- envelope{Error: json.RawMessage(`{"code":-32603,"message":"the shared server ended"}`)}
		}
	}
}

// serveClient serves one CLI connection until it ends.
func (r *router) serveClient(ctx context.Context, conn net.Conn) {
	r.mu.Lock()
	r.clients++
	c := &client{n: r.clients, out: frames(conn), calls: map[string]int64{}, previews: map[string]bool{}}
	r.mu.Unlock()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-ctx.Done():
			conn.Close()
		case <-stop:
		}
	}()
	defer r.forget(ctx, c)
	for {
		frame, _, err := c.out.ReadFrame(ctx)
		if err != nil {
			return
		}
		var env envelope
		if err := json.Unmarshal(frame, &env); err != nil {
			_ = r.send(ctx, c.out, envelope{ID: json.RawMessage("null"),
				Error: json.RawMessage(`{"code":-32700,"message":"parse error: not JSON"}`)})
			continue
		}
		if !r.fromClient(ctx, c, env) {
			return
		}
	}
}

// fromClient handles one message of a client; false ends the connection.
func (r *router) fromClient(ctx context.Context, c *client, env envelope) bool {
	isCall := len(env.ID) > 0
	switch {
	case env.Method == "":
		return true // an answer: the router asks the client nothing
	case env.Method == "initialize":
		if err := r.checkFolders(env.Params); err != nil {
			msg, _ := json.Marshal(err.Error())
			_ = r.send(ctx, c.out, envelope{ID: env.ID, Error: json.RawMessage(`{"code":-32602,"message":` + string(msg) + `}`)})
			return true
		}
		_ = r.send(ctx, c.out, envelope{ID: env.ID, Result: r.init})
	case env.Method == "shutdown":
		_ = r.send(ctx, c.out, envelope{ID: env.ID, Result: json.RawMessage("null")})
	case env.Method == "exit":
		return false
	case env.Method == "$/cancelRequest":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(env.Params, &p)
		r.mu.Lock()
		id, ok := c.calls[string(p.ID)]
		r.mu.Unlock()
		if ok {
			_ = r.send(ctx, r.backend, envelope{Method: "$/cancelRequest", Params: json.RawMessage(`{"id":` + strconv.FormatInt(id, 10) + `}`)})
		}
	case !isCall:
		// initialized, and document or configuration notifications: the
		// shared server keeps no client's buffers or settings.
	default:
		r.forward(ctx, c, env)
	}
	return true
}

// checkFolders refuses a session on another root than the server's.
func (r *router) checkFolders(raw json.RawMessage) error {
	var p struct {
		WorkspaceFolders []struct {
			URI string `json:"uri"`
		} `json:"workspaceFolders"`
	}
	_ = json.Unmarshal(raw, &p)
	want := workspace.PathToURI(r.root)
	for _, f := range p.WorkspaceFolders {
		path, err := workspace.URIToPath(f.URI)
		if err != nil {
			return err
		}
		real, err := RealRoot(path)
		if err != nil || workspace.PathToURI(real) != want {
			return fmt.Errorf("this shared server serves %s, not %s", r.root, path)
		}
	}
	if len(p.WorkspaceFolders) != 1 {
		return fmt.Errorf("a shared server serves one workspace folder, %s", r.root)
	}
	return nil
}

// forward passes a client's request to the server, its tokens renamed.
func (r *router) forward(ctx context.Context, c *client, env envelope) {
	p := &pending{client: c, id: append(json.RawMessage(nil), env.ID...)}
	var params map[string]json.RawMessage
	if json.Unmarshal(env.Params, &params) == nil && params != nil {
		if env.Method == "workspace/executeCommand" {
			_ = json.Unmarshal(params["command"], &p.command)
		}
		renamed := false
		for _, key := range []string{"partialResultToken", "workDoneToken"} {
			if tok, ok := params[key]; ok {
				params[key] = r.renameToken(c, tok)
				renamed = true
			}
		}
		if renamed {
			env.Params, _ = json.Marshal(params)
		}
	}
	env.ID = r.register(p)
	if err := r.send(ctx, r.backend, env); err != nil {
		msg, _ := json.Marshal("the shared server is not answering: " + err.Error())
		_ = r.send(ctx, c.out, envelope{ID: p.id, Error: json.RawMessage(`{"code":-32603,"message":` + string(msg) + `}`)})
	}
}

// renameToken gives a client's token a name no other client's has.
func (r *router) renameToken(c *client, tok json.RawMessage) json.RawMessage {
	name, _ := json.Marshal(fmt.Sprintf("c%d:%s", c.n, tok))
	r.mu.Lock()
	r.tokens[string(name)] = tokenOwner{client: c, token: append(json.RawMessage(nil), tok...)}
	c.tokens = append(c.tokens, string(name))
	r.mu.Unlock()
	return name
}

// forget ends a connection's part in the server: its requests still
// running are cancelled, its tokens dropped, its previews discarded.
func (r *router) forget(ctx context.Context, c *client) {
	r.mu.Lock()
	c.gone = true
	var cancel []int64
	for _, id := range c.calls {
		cancel = append(cancel, id)
	}
	for _, t := range c.tokens {
		delete(r.tokens, t)
	}
	var previews []string
	for id := range c.previews {
		previews = append(previews, id)
	}
	r.mu.Unlock()
	_ = c.out.Close()
	for _, id := range cancel {
		_ = r.send(ctx, r.backend, envelope{Method: "$/cancelRequest", Params: json.RawMessage(`{"id":` + strconv.FormatInt(id, 10) + `}`)})
	}
	for _, id := range previews {
		params, _ := json.Marshal(map[string]any{"command": lsp.CommandDiscardEdit, "arguments": []any{map[string]string{"id": id}}})
		_ = r.send(ctx, r.backend, envelope{ID: r.register(&pending{}), Method: "workspace/executeCommand", Params: params})
	}
}
