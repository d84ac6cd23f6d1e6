package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/outline"
	"github.com/structls/structls/workspace"
)

// TestOutlineCLI checks structls outline's views, filters, JSON and exit
// codes (0 items, 1 none, 2 a refused query).
func TestOutlineCLI(t *testing.T) {
	dir := testutil.WriteTree(t, `
-- a.go --
package a

import "fmt"

type Server struct {
	Addr string
	log  func()
}

func (s *Server) Start() { fmt.Println() }
func helper()           {}
-- b.py --
def build(): pass
-- notes.txt --
plain text
`)
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		stdout   string
		stderr   string
	}{
		{"file digest", []string{"a.go"}, exitFound, "a.go\n 5: type Server struct {\n      field: Addr, log\n10: func (s *Server) Start()\n11: func helper()\n", ""},
		{"directory names", nil, exitFound, "a.go\nstruct: Server\nmethod: Start\n\nb.py\nfunction: build\n", ""},
		{"imports", []string{"--items", "imports", "a.go"}, exitFound, "a.go\n3: import \"fmt\"\n", ""},
		{"type and match", []string{"--type", "function", "--match", "^help", "--view", "signatures", "a.go"}, exitFound, "a.go\n11: func helper()\n", ""},
		{"nothing selected", []string{"--match", "^nothing$", "a.go"}, exitNotFound, "a.go\nnothing found\n", ""},
		{"no outline for text", []string{"notes.txt"}, exitNotFound, "nothing found", "has no outline"},
		{"bad view", []string{"--view", "full", "a.go"}, exitError, "", "use one of auto, names, signatures, digest, expanded"},
		{"bad regex", []string{"--match", "(", "a.go"}, exitError, "", "match is not a valid regular expression"},
		{"missing path", []string{"nope.go"}, exitError, "", "nope.go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"outline", "--root", dir}, tc.args...), nil, &stdout, &stderr)
			if code != tc.wantCode {
				t.Fatalf("exit %d; want %d (stdout %q, stderr %q)", code, tc.wantCode, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stdout %q, stderr %q; want them to hold %q and %q", stdout.String(), stderr.String(), tc.stdout, tc.stderr)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"outline", "--root", dir, "--json", "a.go"}, nil, &stdout, &stderr); code != exitFound {
		t.Fatalf("--json: exit %d, stderr %q", code, stderr.String())
	}
	var res struct {
		Files []struct {
			Path  string
			Items []struct{ Name, SymbolType string }
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res.Files) != 1 || len(res.Files[0].Items) != 3 {
		t.Errorf("--json printed %s (%v); want the structls.outline result with 3 items", stdout.String(), err)
	}
}

// writeOutlineTree writes n Go files under dir, each declaring 10 struct
// types of 3 fields with a method each and 10 functions (50 items and
// members a file, 20 KB of JSON), their bodies a few statements long.
func writeOutlineTree(t *testing.T, dir string, n int) {
	t.Helper()
	for f := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\nimport \"fmt\"\n", f/100)
		for i := range 10 {
			fmt.Fprintf(&b, "\n// T%d is a type.\ntype T%d struct {\n\tA, B int\n\tname string\n}\n", i, i)
			fmt.Fprintf(&b, "\nfunc (t *T%d) String() string {\n\tif t == nil {\n\t\treturn \"<nil>\"\n\t}\n\treturn fmt.Sprint(t.A, t.B, t.name)\n}\n", i)
			fmt.Fprintf(&b, "\n// F%d does things.\nfunc F%d(x, y int) (int, error) {\n\tfor i := 0; i < x; i++ {\n\t\ty += i * %d\n\t}\n\treturn y, nil\n}\n", i, i, i)
		}
		path := filepath.Join(dir, fmt.Sprintf("p%d", f/100), fmt.Sprintf("f%d.go", f))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOutlineTextCapCLI: the text of `structls outline` stops at 50 KB
// and ends with the exact command that continues it; following those
// commands shows every file once.
func TestOutlineTextCapCLI(t *testing.T) {
	dir := t.TempDir()
	writeOutlineTree(t, dir, 120) // about 1.3 KB a file in the signatures view
	args := []string{"outline", "--view", "signatures", "--root", dir}
	seen := map[string]int{}
	for page := 0; ; page++ {
		if page > 10 {
			t.Fatal("the pages never end")
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != exitFound {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
		out := stdout.String()
		for _, line := range strings.Split(out, "\n") {
			if strings.HasSuffix(line, ".go") {
				seen[line]++
			}
		}
		last := out[strings.LastIndexByte(strings.TrimSuffix(out, "\n"), '\n')+1:]
		if len(out)-len(last) > 50<<10 {
			t.Fatalf("page %d: %d bytes before its last line, over 50 KB", page, len(out)-len(last))
		}
		if !strings.HasPrefix(last, "For the rest run: ") {
			if page == 0 {
				t.Fatalf("one page of %d bytes; want several", len(out))
			}
			break
		}
		next := strings.Fields(strings.TrimPrefix(strings.TrimSpace(last), "For the rest run: "))
		if len(next) < 4 || next[0] != "structls" || next[2] != "--skip" {
			t.Fatalf("page %d ends %q; want a structls outline --skip N command", page, last)
		}
		args = next[1:]
	}
	if len(seen) != 120 {
		t.Errorf("the pages showed %d files; want 120", len(seen))
	}
	for f, n := range seen {
		if n != 1 {
			t.Errorf("%s shown %d times", f, n)
		}
	}
}

// TestOutlineJSONCLI: --json prints the structls.outline result exactly
// (the files streamed, the reply's fields after them): the result
// outline.Search gives, through JSON.
func TestOutlineJSONCLI(t *testing.T) {
	dir := t.TempDir()
	writeOutlineTree(t, dir, 30)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"outline", "--json", "--items", "all", "--root", dir}, nil, &stdout, &stderr); code != exitFound {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	f, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	unlimited := 0
	want, err := outline.Search(context.Background(), engine.Env{Snapshot: workspace.NewSnapshot([]workspace.Folder{f}, workspace.Settings{}, nil), Encoding: workspace.UTF16}, outline.Query{Items: outline.ItemsAll, Limit: &unlimited})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got, wantDecoded any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("--json printed invalid JSON: %v", err)
	}
	if err := json.Unmarshal(wantJSON, &wantDecoded); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, wantDecoded) {
		t.Errorf("--json printed %.300s…; want %.300s…", stdout.String(), wantJSON)
	}
}

// outlinePeakRSS bounds the peak resident set of `structls outline --json`
// over the generated trees below, whatever their size. Measured (2 cores,
// load 20): 55 and 60 MiB over 1,000 and 4,000 files (19 and 79 MB of
// JSON) with the outline streamed; 260 and 796 MiB before, when the
// outline collected every file's items before encoding them. ast-grep's
// outline of the Go standard library peaks at 143-172 MB.
const outlinePeakRSS = 160 << 20

// TestOutlineJSONMemory: the JSON outline of a tree streams, so its peak
// stays under one bound as the tree grows fourfold.
func TestOutlineJSONMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("outlines 5,000 generated files")
	}
	for _, n := range []int{1000, 4000} {
		dir := t.TempDir()
		writeOutlineTree(t, dir, n)
		r := testutil.RunCapped(t, 4<<30, 5*time.Minute, nil, dir, binary, "outline", "--json", "--root", dir)
		t.Logf("%d files: exit %d, peak RSS %d MiB, %d MB of JSON", n, r.ExitCode, r.PeakRSS>>20, len(r.Stdout)>>20)
		if r.ExitCode != exitFound || r.Signal != "" || r.TimedOut {
			t.Fatalf("exit %d (signal %q, timed out %v): %.2000s", r.ExitCode, r.Signal, r.TimedOut, r.Stderr)
		}
		if r.PeakRSS > outlinePeakRSS {
			t.Errorf("%d files: peak RSS %d MiB, want at most %d MiB", n, r.PeakRSS>>20, outlinePeakRSS>>20)
		}
	}
}
