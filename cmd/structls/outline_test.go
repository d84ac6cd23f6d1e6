package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
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
