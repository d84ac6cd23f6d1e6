package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
)

// The X-Ray bombs of issue 21 run in the real binary, under an
// address-space cap, with their peak RSS asserted: each ends in a clean
// per-file error (or a partial result), the other files and the run go on,
// and the process stays near the documented budgets (the README's X-Ray
// limits: 512 MiB per file evaluated, one file per worker; output bounded
// by the file, in flight and per run).
const (
	xrayCap     = 8 << 30         // the address space the process may take (Starlark reserves 4 GiB for its integers)
	xrayPeakRSS = 1 << 30         // the peak its resident set may reach (measured: 524–668 MiB)
	xrayTimeout = 5 * time.Minute // a hang, not a time limit
)

// bombWorkspace writes a.go, whose evaluation is the bomb, and b.go, a
// well-behaved file that must keep its match.
func bombWorkspace(t *testing.T) string {
	return testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc A() {}\n-- b.go --\npackage b\n\nfunc B() {}\n")
}

// bomb is an evaluator that runs attack on a.go and returns one match on b.go.
func bomb(attack string) string {
	return "if file_path == \"a.go\":\n    " + attack + "\nreturn {\"matches\": [{\"line_number\": 1, \"ok\": True}]}"
}

// runCapped runs the structls binary with args in dir under the cap; its
// stdout goes through tail, so that what a bomb prints is not kept here.
func runCapped(t *testing.T, dir string, stdin []byte, args ...string) testutil.Capped {
	t.Helper()
	script := `set -o pipefail; "$0" "$@" | tail -c 65536`
	r := testutil.RunCapped(t, xrayCap, xrayTimeout, stdin, dir, "bash", append([]string{"-c", script, binary}, args...)...)
	if r.TimedOut {
		t.Fatalf("structls %s did not end within %v", strings.Join(args, " "), xrayTimeout)
	}
	t.Logf("structls %.60s: exit %d, peak RSS %d MiB", strings.Join(args, " "), r.ExitCode, r.PeakRSS>>20)
	if r.PeakRSS > xrayPeakRSS {
		t.Errorf("peak RSS %d MiB; want at most %d MiB", r.PeakRSS>>20, xrayPeakRSS>>20)
	}
	return r
}

// TestXRayEvaluatorMemoryBombs: builtins, comprehensions and node.text are
// charged to the file's memory budget (or bounded by its step budget):
// the CLI and the server end the bomb's file with an error naming the
// budget and go on.
func TestXRayEvaluatorMemoryBombs(t *testing.T) {
	dir := bombWorkspace(t)
	for _, tc := range []struct{ name, attack, message string }{
		{"lists of ranges", `l = [list(range(1000000)) for i in range(200)]`, "EvaluatorCrash: line 2, column 14: list(): the evaluator built more than 512 MiB"},
		{"nested comprehension", `l = [i for i in range(1000000) for j in range(1000)]`, "budget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCapped(t, dir, nil, "xray", "-e", "func", "--file-timeout-ms", "600000", "--eval-code", bomb(tc.attack))
			out := string(r.Stdout)
			if r.ExitCode != exitFound || !strings.Contains(out, "# b.go\n1|package b\n  ok=true\n") || !strings.Contains(out, "a.go: Evaluator") || !strings.Contains(out, tc.message) {
				t.Errorf("exit %d, stdout %q, stderr %.2000s; want b.go's match and a.go's error holding %q", r.ExitCode, out, r.Stderr, tc.message)
			}
			res := serveXRay(t, dir, map[string]any{"driver": "func", "fileTimeoutMs": 600000, "evaluator": bomb(tc.attack)}, false)
			if !strings.Contains(res, `"path":"b.go"`) || !strings.Contains(res, `"errorType":"Evaluator`) {
				t.Errorf("the server replied %.2000s; want b.go's match and a.go's error", res)
			}
		})
	}
}

// TestXRayOutputBombs: a 16 MB string in 50 matches, and 20 files of
// 100,000 matches each, in the CLI's text and JSON modes and from the
// server to a client that takes partial results.
func TestXRayOutputBombs(t *testing.T) {
	t.Run("one string in many matches", func(t *testing.T) {
		dir := bombWorkspace(t)
		code := bomb("s = \"x\" * 16000000\n    return {\"matches\": [{\"line_number\": 1, \"t\": s} for i in range(50)]}")
		for _, mode := range []string{"text", "json"} {
			args := []string{"xray", "-e", "func", "--eval-code", code}
			if mode == "json" {
				args = append(args, "--json")
			}
			r := runCapped(t, dir, nil, args...)
			if out := string(r.Stdout); r.ExitCode != exitFound || !strings.Contains(out, "InvalidEvaluatorReturn") || !strings.Contains(out, "more than 64 MiB") {
				t.Errorf("%s: exit %d, stdout %.2000s, stderr %.2000s; want a.go's InvalidEvaluatorReturn naming the 64 MiB cap", mode, r.ExitCode, out, r.Stderr)
			}
		}
		res := serveXRay(t, dir, map[string]any{"driver": "func", "evaluator": code}, true)
		if !strings.Contains(res, "more than 64 MiB") {
			t.Errorf("the server replied %.2000s; want a.go's error", res)
		}
	})
	t.Run("many files of many matches", func(t *testing.T) {
		var files strings.Builder
		for i := range 20 {
			fmt.Fprintf(&files, "-- f%02d.go --\npackage a // %s\n\nfunc f() {}\n", i, strings.Repeat("y", 100))
		}
		dir := testutil.WriteTree(t, files.String())
		code := `return {"matches": [{"line_number": 1} for i in range(100000)]}`
		for _, mode := range []string{"text", "json"} {
			args := []string{"xray", "-e", "func", "--file-timeout-ms", "600000", "--eval-code", code}
			if mode == "json" {
				args = append(args, "--json")
			}
			r := runCapped(t, dir, nil, args...)
			out := string(r.Stdout)
			wantEnd := "2000000 matches; 20 of 20 candidate files evaluated\n"
			if mode == "json" {
				wantEnd = `"candidates":20,"filesEvaluated":20,"partial":false`
			}
			if r.ExitCode != exitFound || !strings.Contains(out, wantEnd) {
				t.Errorf("%s: exit %d, stdout ends %q, stderr %.2000s; want every match printed", mode, r.ExitCode, out[max(0, len(out)-400):], r.Stderr)
			}
		}
		res := serveXRay(t, dir, map[string]any{"driver": "func", "fileTimeoutMs": 600000, "evaluator": code}, true)
		if !strings.Contains(res, `"candidates":20,"filesEvaluated":20,"partial":false`) {
			t.Errorf("the server replied %.2000s; want all 20 files evaluated", res)
		}
	})
}

// serveXRay runs `structls serve --stdio` under the cap on dir, as an
// editor drives it (a child of this test binary: serveChild), runs one
// structls.xray (with a partialResultToken when partial), and returns the
// reply to it; the partial results are read and dropped.
func serveXRay(t *testing.T, dir string, query map[string]any, partial bool) string {
	t.Helper()
	r := serveCapped(t, dir, "structls.xray", query, partial, xrayCap)
	if r.TimedOut || r.ExitCode != 0 || r.PeakRSS > xrayPeakRSS {
		t.Fatalf("serve: timed out %v, exit %d, peak RSS %d MiB (want 0, at most %d MiB)\nstdout: %.2000s\nstderr: %.2000s",
			r.TimedOut, r.ExitCode, r.PeakRSS>>20, xrayPeakRSS>>20, r.Stdout, r.Stderr)
	}
	return string(r.Stdout)
}

// serveCapped runs `structls serve --stdio` on dir under an address-space
// cap of limit bytes, as an editor drives it (a child of this test binary:
// serveChild), runs one command (with a partialResultToken when partial);
// the reply to it is the result's Stdout.
func serveCapped(t *testing.T, dir, command string, query map[string]any, partial bool, limit int64) testutil.Capped {
	t.Helper()
	params := map[string]any{"command": command, "arguments": []any{query}}
	if partial {
		params["partialResultToken"] = "p"
	}
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(serveChildEnv, binary)
	t.Setenv(serveChildEnv+"_PARAMS", string(raw))
	r := testutil.RunCapped(t, limit, xrayTimeout, nil, dir, os.Args[0])
	t.Logf("structls serve: %s, exit %d, peak RSS %d MiB, %d bytes of reply", command, r.ExitCode, r.PeakRSS>>20, len(r.Stdout))
	return r
}

// serveChildEnv names the structls binary a child of the test binary
// drives (TestMain runs serveChild instead of the tests when it is set).
const serveChildEnv = "STRUCTLS_TEST_SERVE_XRAY"

// serveChild runs `structls serve --stdio` in the current directory as an
// editor would: initialize, the command whose params are in the
// environment, shutdown once it is answered, exit. It prints the reply to
// the command and returns the server's exit code (3 when driving it failed).
func serveChild() int {
	cmd := exec.Command(os.Getenv(serveChildEnv), "serve", "--stdio")
	cmd.Stderr = os.Stderr
	stdin, err1 := cmd.StdinPipe()
	stdout, err2 := cmd.StdoutPipe()
	if err := errors.Join(err1, err2, cmd.Start()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	dir, _ := os.Getwd()
	send := func(m string) { fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(m), m) }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file://` + dir + `","capabilities":{}}}`)
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":` + os.Getenv(serveChildEnv+"_PARAMS") + `}`)
	r := bufio.NewReaderSize(stdout, 1<<20)
	for {
		header, err := textproto.NewReader(r).ReadMIMEHeader()
		if err != nil {
			break // the server exited
		}
		n, err := strconv.Atoi(header.Get("Content-Length"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "a frame without a length:", err)
			return 3
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		switch {
		case bytes.HasPrefix(body, []byte(`{"jsonrpc":"2.0","id":2,`)):
			os.Stdout.Write(body)
			send(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`)
		case bytes.HasPrefix(body, []byte(`{"jsonrpc":"2.0","id":3,`)):
			send(`{"jsonrpc":"2.0","method":"exit"}`)
		}
	}
	if err := cmd.Wait(); err != nil {
		return cmd.ProcessState.ExitCode()
	}
	return 0
}
