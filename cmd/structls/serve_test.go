package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// serverProcess is `structls serve` running as a child process, driven
// frame by frame as an editor drives it.
type serverProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *syncBuffer
	exited chan error
}

// syncBuffer is a bytes.Buffer safe to write from the process's stderr
// copier while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startServer runs the binary with args; the process is killed when the
// test ends if it is still running.
func startServer(t *testing.T, args ...string) *serverProcess {
	t.Helper()
	cmd := exec.Command(binary, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &serverProcess{t: t, cmd: cmd, stdin: stdin, stdout: bufio.NewReader(stdout), stderr: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = stdin.Close()
	})
	return p
}

// send writes one JSON-RPC message; id nil makes it a notification.
func (p *serverProcess) send(id any, method string, params any) {
	p.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	if id != nil {
		msg["id"] = id
	}
	body, err := json.Marshal(msg)
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(p.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		p.t.Fatal(err)
	}
}

// reply reads frames until the response to id, answering the server's own
// requests with null on the way.
func (p *serverProcess) reply(id int) json.RawMessage {
	p.t.Helper()
	for {
		header, err := textproto.NewReader(p.stdout).ReadMIMEHeader()
		if err != nil {
			p.t.Fatalf("reading a frame header: %v\nstderr:\n%s", err, p.stderr.String())
		}
		n, err := strconv.Atoi(header.Get("Content-Length"))
		if err != nil {
			p.t.Fatal(err)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(p.stdout, body); err != nil {
			p.t.Fatal(err)
		}
		var m struct {
			ID     json.RawMessage
			Method string
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(body, &m); err != nil {
			p.t.Fatalf("frame %s: %v", body, err)
		}
		switch {
		case m.Method == "workspace/configuration":
			// VS Code's answer: its own trace setting comes inside the section.
			reply := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":[{"trace":{"server":"off"},"maxFileSize":1000000}]}`, m.ID)
			fmt.Fprintf(p.stdin, "Content-Length: %d\r\n\r\n%s", len(reply), reply)
		case m.Method != "" && m.ID != nil:
			reply := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID)
			fmt.Fprintf(p.stdin, "Content-Length: %d\r\n\r\n%s", len(reply), reply)
		case m.Method == "" && string(m.ID) == strconv.Itoa(id):
			if m.Error != nil {
				p.t.Fatalf("request %d: %s", id, m.Error.Message)
			}
			return body
		}
	}
}

// waitExit waits for the process to end, failing after a generous deadline
// (the contract is one second; this only detects a hang).
func (p *serverProcess) waitExit() int {
	p.t.Helper()
	select {
	case err := <-p.exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			p.t.Fatal(err)
		}
		return 0
	case <-time.After(20 * time.Second):
		p.t.Fatalf("the server still runs 20 s after exit\nstderr:\n%s", p.stderr.String())
		return -1
	}
}

// initialize performs the handshake on dir.
func (p *serverProcess) initialize(dir string) {
	p.t.Helper()
	p.send(1, "initialize", map[string]any{"processId": nil, "capabilities": map[string]any{
		"window":    map[string]any{"workDoneProgress": true},
		"workspace": map[string]any{"configuration": true, "didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}},
	}, "workspaceFolders": []map[string]string{{"uri": "file://" + dir, "name": "demo"}}})
	p.reply(1)
	p.send(nil, "initialized", map[string]any{})
}

// TestExitWithStdinOpen runs the binary as Neovim and eglot do on stop: exit
// is sent and stdin stays open. The process must end, with 0 after shutdown
// and 1 without.
func TestExitWithStdinOpen(t *testing.T) {
	root := demoRoot
	for _, tt := range []struct {
		name     string
		shutdown bool
		want     int
	}{{"after shutdown", true, 0}, {"without shutdown", false, 1}} {
		t.Run(tt.name, func(t *testing.T) {
			p := startServer(t, "serve", "--stdio")
			p.initialize(root)
			if tt.shutdown {
				p.send(2, "shutdown", nil)
				p.reply(2)
			}
			p.send(nil, "exit", nil)
			sent := time.Now()
			if code := p.waitExit(); code != tt.want {
				t.Errorf("exit code %d; want %d", code, tt.want)
			}
			t.Logf("process ended %v after exit", time.Since(sent))
		})
	}
}

// TestNormalSessionKeepsStderrQuiet runs a whole editor session at the
// default log level: Neovim logs every stderr line as an ERROR, so nothing
// may be written there — not even the window/logMessage notes.
func TestNormalSessionKeepsStderrQuiet(t *testing.T) {
	root := demoRoot
	p := startServer(t) // no arguments: what editors run
	p.initialize(root)
	uri := "file://" + filepath.Join(root, "main.go")
	p.send(nil, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "go", "version": 1, "text": "package main\n\n// TODO: unsaved\n"}})
	p.send(nil, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0},
			"end": map[string]any{"line": 0, "character": 0}}, "text": "// edited\n"}}})
	p.send(nil, "workspace/didChangeConfiguration", map[string]any{"settings": nil})
	p.send(2, "workspace/executeCommand", map[string]any{"command": "structls.search", "arguments": []any{map[string]any{"pattern": "TODO"}}})
	p.reply(2)
	p.send(3, "workspace/executeCommand", map[string]any{"command": "structls.astGrep", "arguments": []any{map[string]any{"pattern": "fmt.Println($$$A)", "lang": "go"}}})
	p.reply(3)
	p.send(nil, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	p.send(4, "shutdown", nil)
	p.reply(4)
	p.send(nil, "exit", nil)
	if code := p.waitExit(); code != 0 {
		t.Errorf("exit code %d; want 0", code)
	}
	if out := p.stderr.String(); out != "" {
		t.Errorf("stderr at the default level holds:\n%s", out)
	}
}
