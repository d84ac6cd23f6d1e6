package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
)

// binary is the structls command built (without -race) for the tests that
// run it as a process: the stdio smoke test and the ripgrep differential.
var binary string

// demoRoot is a copy of the embedded demo workspace, the tests' small corpus.
var demoRoot string

func TestMain(m *testing.M) {
	if os.Getenv(serveChildEnv) != "" { // a child of TestXRayOutputBombs and others (xray_memory_test.go)
		os.Exit(serveChild())
	}
	dir, err := os.MkdirTemp("", "structls-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "structls")
	demoRoot = filepath.Join(dir, "demo")
	if err := writeDemoWorkspace(demoRoot); err != nil {
		panic(err)
	}
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building structls:", err)
		os.Exit(2)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// TestStdioSmoke runs the binary as an editor would and checks that stdout
// carries nothing but well-formed JSON-RPC frames.
func TestStdioSmoke(t *testing.T) {
	uri := "file://" + demoRoot
	msgs := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"` + uri + `","capabilities":{"general":{"positionEncodings":["utf-8","utf-16"]}}}}`,
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"structls.search","arguments":[{"pattern":"TODO"}]}}`,
		`not json`,
		`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	}
	cmd := exec.Command(binary, "serve", "--stdio", "--log-level", "debug")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdoutPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs[:len(msgs)-1] {
		fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	// Read every frame on stdout; send exit once shutdown is answered.
	replies := map[string]string{}
	r := bufio.NewReader(stdoutPipe)
	for {
		header, err := textproto.NewReader(r).ReadMIMEHeader()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("stdout holds something that is not a frame header: %v", err)
		}
		n, err := strconv.Atoi(header.Get("Content-Length"))
		if err != nil {
			t.Fatal(err)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(body, &m); err != nil || m.JSONRPC != "2.0" {
			t.Fatalf("frame %s is not JSON-RPC 2.0: %v", body, err)
		}
		replies[string(m.ID)] = string(body)
		if string(m.ID) == "3" {
			exit := msgs[len(msgs)-1]
			fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(exit), exit)
			_ = stdin.Close()
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("structls serve: %v (want exit code 0 after shutdown)\nstderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(replies["1"], `"positionEncoding":"utf-8"`) {
		t.Errorf("initialize reply %s; want utf-8 negotiated", replies["1"])
	}
	if !strings.Contains(replies["2"], `"path":"main.go"`) {
		t.Errorf("search reply %s; want a match in main.go", replies["2"])
	}
	if !strings.Contains(replies["null"], "-32700") {
		t.Errorf("malformed message: reply %s; want a ParseError", replies["null"])
	}
	if stderr.Len() == 0 {
		t.Error("no log on stderr at debug level")
	}
}

func TestSearchExitCodes(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"search", "--root", demoRoot, "Shout"}, 0, "util/strings.go:18:// Shout upper-cases a greeting.\nutil/strings.go:19:func Shout(s string) string {\n"},
		{[]string{"search", "--root", demoRoot, "-g", "*.py", "-C", "1", "TODO"}, 0, "scripts/tool.py-4-def greet(name):\nscripts/tool.py:5:    # TODO: validate the name\nscripts/tool.py-6-    return f\"Hello, {name}!\"\n"},
		{[]string{"search", "--root", demoRoot, "no such text anywhere"}, 1, ""},
		{[]string{"search", "--root", demoRoot, "a(?=b)"}, 2, ""},
		{[]string{"search", "--root", demoRoot, "x", "../.."}, 2, ""},
		{[]string{"search"}, 2, ""},
		{[]string{"frobnicate"}, 2, ""},
		{[]string{"version"}, 0, "structls " + version + "\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, nil, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit code %d; want %d\nstderr: %s", code, tt.code, stderr.String())
			}
			if tt.out != "" && stdout.String() != tt.out {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout.String(), tt.out)
			}
			if code == 2 && stderr.Len() == 0 {
				t.Error("an error exit must say why on stderr")
			}
		})
	}
}

// TestAstgrepExitCodes: 0 found, 1 nothing found, 2 an error whose reason
// (what to fix) is on stderr.
func TestAstgrepExitCodes(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		out    string
		stderr string // a substring stderr must hold
	}{
		{[]string{"astgrep", "--root", demoRoot, "-p", "strings.ToUpper($S)", "-l", "go"}, 0,
			"# util/\n## strings.go\n*20|\treturn strings.ToUpper(s)\n  meta: S=s\n\nNote: in go the pattern parses as a type_conversion_expression, which matches nothing in code; it was searched as a call_expression (the pattern placed inside a function body); pass a selector or a strictness to opt out\n", ""},
		{[]string{"astgrep", "--root", demoRoot, "-p", "nosuchcall($$$)", "-l", "go"}, 1, "", ""},
		{[]string{"astgrep", "--root", demoRoot, "--json", "-p", "strings.ToUpper($S)", "-l", "go"}, 0, "", ""},
		{[]string{"astgrep", "--root", demoRoot, "-p", "x", "-l", "klingon"}, 2, "", "structls languages"},
		{[]string{"astgrep", "--root", demoRoot, "-p", "x", "-l", "goo"}, 2, "", "did you mean go?"},
		{[]string{"astgrep", "--root", demoRoot}, 2, "", "non-empty pattern"},
		// An empty -p is an error, not a cue to take the first path as the pattern.
		{[]string{"astgrep", "--root", demoRoot, "-p", "", "main.go"}, 2, "", "non-empty pattern"},
		{[]string{"astgrep", "--root", demoRoot, "-p", " ", "-l", "go"}, 2, "", "non-empty pattern"},
		// A broken pattern is searched as ast-grep does, and said to be broken:
		// once, at the end of the text (above), or on stderr with --json.
		{[]string{"astgrep", "--root", demoRoot, "--json", "-p", "func (", "-l", "go"}, 1, "", `"func (" at line 1, column 1 is a syntax error`},
		// Paths that do not exist are reported; when none exists it is an error.
		{[]string{"astgrep", "--root", demoRoot, "-p", "os.Exit($C)", "-l", "go", "main.go", "nope.go"}, 0, "", "nope.go: no such file or directory"},
		{[]string{"astgrep", "--root", demoRoot, "--json", "-p", "os.Exit($C)", "-l", "go", "nope.go"}, 2, "", "path not found: nope.go"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[3:], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, nil, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit code %d; want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout.String(), stderr.String())
			}
			if tt.out != "" && stdout.String() != tt.out {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout.String(), tt.out)
			}
			if code == 2 && stderr.Len() == 0 {
				t.Error("an error exit must say why on stderr")
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr %q; want it to hold %q", stderr.String(), tt.stderr)
			}
		})
	}
}

// demoShows is what the demo must show: the matches typed into the unsaved
// buffer, found on the lines they were typed at; the rewrite's diff, applied
// to the buffer and not the disk; the stale apply refused.
var demoShows = []string{
	"main.go:12:4-8  (unsaved buffer) \t// TODO(demo): this comment exists only in the unsaved buffer",
	`main.go:18  (unsaved buffer) fmt.Println("unsaved", name)   ARGS=["unsaved" , name]`,
	"+\tfmt.Fprintln(os.Stderr, \"unsaved\", name)",
	`workspace/applyEdit "structls: 3 replacements in 1 file": applied=true`,
	"buffer main.go: 3 lines call fmt.Fprintln; main.go on disk: 0 (unchanged until the editor saves)",
	"refused (-32801): structls.applyEdit: the edit was not applied, nothing was written: 1 file changed since the preview: main.go",
}

// TestDemo runs the installed-binary way: from a directory that is not the
// repository, with no --root. The embedded workspace is written to a
// temporary directory and removed afterwards; the current directory stays
// untouched.
func TestDemo(t *testing.T) {
	cwd, tmp := t.TempDir(), t.TempDir()
	cmd := exec.Command(binary, "demo")
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("structls demo in %s: %v\nstderr: %s", cwd, err, stderr.String())
	}
	for _, want := range demoShows {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the demo does not show %q:\n%s", want, stdout.String())
		}
	}
	for _, dir := range []string{cwd, tmp} {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("the demo left %d entries in %s (first: %s); want none", len(entries), dir, entries[0].Name())
		}
	}
}

// TestDemoRoot runs the demo in-process on a workspace named by --root.
func TestDemoRoot(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"demo", "--root", demoRoot}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("demo exit code %d\nstderr: %s", code, stderr.String())
	}
	for _, want := range demoShows {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the demo does not show %q:\n%s", want, stdout.String())
		}
	}
	// Any other folder is refused with what the demo needs; a new or
	// empty one gets the workspace written into it, and kept.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run([]string{"demo", "--root", other}, nil, &stdout, &stderr); code != exitError ||
		!strings.Contains(stderr.String(), "is not the demo workspace") || !strings.Contains(stderr.String(), "name a new or empty directory") {
		t.Errorf("demo on another folder: exit code %d; want %d with what it needs\nstderr: %s", code, exitError, stderr.String())
	}
	fresh := filepath.Join(t.TempDir(), "demo-ws")
	stdout.Reset()
	if code := run([]string{"demo", "--root", fresh}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "wrote the demo workspace into "+fresh) {
		t.Errorf("demo on a new folder: exit code %d\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(fresh, "sgconfig.yml")); err != nil {
		t.Errorf("the demo workspace written into --root was not kept: %v", err)
	}
}

// TestSearchMatchesRipgrep is the differential test: `structls search` and
// ripgrep (Debian's rg, installed by .ci/run) must report the same
// (file, line) pairs, on the testdata corpora and on the Go standard library.
//
// ripgrep runs with --hidden (structls searches dot files by default),
// --no-require-git (structls honours .gitignore outside git repositories
// too) and -g '!.git'.
func TestSearchMatchesRipgrep(t *testing.T) {
	rg := testutil.Ripgrep(t)
	goroot := filepath.Join(runtime.GOROOT(), "src")
	cases := []struct {
		root string
		args []string
	}{
		{"../../testdata", []string{`TODO\(\w+\)`}},
		{"../../testdata", []string{"-i", "todo"}},
		{demoRoot, []string{"-F", "Hello, "}},
		{"../../testdata", []string{`[^\x00-\x7F]`}},
		{"../../testdata", []string{`^\s*(def|func) \w+`}},
		{"../../testdata", []string{"-g", "*.go", `err(or)?\b`}},
		{"../../testdata", []string{"-g", "!*.go", "-i", `e\b`}},
		{"../../testdata", []string{`$`}},
		{goroot, []string{"-g", "*.go", `func \(\w+ \*Conn\) \w+`}},
		{goroot, []string{"-g", "*.go", `TODO\(\w+\)`}},
		{goroot, []string{"-g", "*.go", "-i", "deadline exceeded"}},
		{goroot, []string{"-g", "*.go", `[A-Z][a-z]+Handler\b`}},
		{goroot, []string{"-g", "*.go", "-F", "ctx.Done()"}},
		{goroot, []string{"-g", "*.go", `ErrUnexpectedEOF|ErrShortWrite`}},
		{goroot, []string{"-g", "*.go", `^//go:build \w+$`}},
		{goroot, []string{"-g", "*.go", `\p{Greek}+`}},
	}
	for _, c := range cases {
		name := filepath.Base(c.root) + " " + strings.Join(c.args, " ")
		t.Run(name, func(t *testing.T) {
			ours := runLines(t, binary, c.root, append([]string{"search"}, c.args...), ":")
			theirs := runLines(t, rg, c.root, append([]string{"-n", "--no-heading", "--hidden", "--no-require-git", "-g", "!.git"}, c.args...), ":")
			if len(theirs) == 0 {
				t.Fatal("ripgrep found nothing: the case tests nothing")
			}
			if diff := cmp.Diff(theirs, ours); diff != "" {
				t.Errorf("(file:line) sets differ (-ripgrep +structls):\n%s", diff)
			}
			t.Logf("%d matching lines agree", len(ours))
		})
	}
}

// runLines runs a search command in root and returns its sorted "file:line" pairs.
func runLines(t *testing.T, bin, root string, args []string, sep string) []string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("%s %q: %v\n%s", filepath.Base(bin), args, err, ee.Stderr)
	}
	var pairs []string
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if line == "" {
			continue
		}
		parts := strings.SplitN(line, sep, 3)
		if len(parts) < 3 {
			t.Fatalf("unexpected output line %q", line)
		}
		pairs = append(pairs, strings.TrimPrefix(parts[0], "./")+":"+parts[1])
	}
	slices.Sort(pairs)
	return pairs
}
