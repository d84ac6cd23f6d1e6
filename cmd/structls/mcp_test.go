package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPStdio runs `structls mcp` as an agent's client does: JSON-RPC
// lines over stdin and stdout, on a root given with --root. It lists the
// tools, previews an edit and applies it, and the process exits 0 when
// stdin closes.
func TestMCPStdio(t *testing.T) {
	dir := t.TempDir()
	src := "package a\n\nimport \"fmt\"\n\nfunc A() { fmt.Println(1) }\n"
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "mcp", "--root", dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
	defer timer.Stop()
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	id := 0
	call := func(method string, params any) map[string]any {
		t.Helper()
		id++
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		fmt.Fprintf(stdin, "%s\n", msg)
		for lines.Scan() {
			var reply map[string]any
			if err := json.Unmarshal(lines.Bytes(), &reply); err != nil {
				t.Fatalf("stdout holds a line that is not JSON: %q", lines.Text())
			}
			if reply["id"] == float64(id) {
				if reply["error"] != nil {
					t.Fatalf("%s: %v", method, reply["error"])
				}
				return reply["result"].(map[string]any)
			}
		}
		t.Fatalf("%s: no reply (stderr: %s)", method, stderr.String())
		return nil
	}
	call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	fmt.Fprintf(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`+"\n")
	tools := call("tools/list", map[string]any{})["tools"].([]any)
	if len(tools) != 12 {
		t.Errorf("%d tools listed, want 12", len(tools))
	}
	res := call("tools/call", map[string]any{"name": "ast_edit", "arguments": map[string]any{
		"ops": []map[string]string{{"pat": "fmt.Println($A)", "out": "fmt.Print($A)"}}}})
	edit := res["structuredContent"].(map[string]any)
	res = call("tools/call", map[string]any{"name": "resolve", "arguments": map[string]any{"id": edit["id"], "action": "apply"}})
	if res["isError"] == true {
		t.Fatalf("resolve: %v", res)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.go")); !strings.Contains(string(got), "fmt.Print(1)") {
		t.Errorf("after resolve: %q", got)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("structls mcp exited with %v when stdin closed (stderr: %s)", err, stderr.String())
	}
}
