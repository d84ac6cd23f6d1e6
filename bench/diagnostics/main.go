// Command diagnostics measures live rule diagnostics as an editor sees
// them: a 10,000-line Go file is open, the user types one character, and
// the clock runs until the server publishes the diagnostics of that
// version. It types N keystrokes (one at a time, each waiting for its
// diagnostics), each a new character at the end of a comment, and prints
// p50, p95 and max. Every version's text is new: a text seen before would
// find its tree in the server's parse cache (keyed by content) and time
// nothing but the rules.
//
// With ast-grep installed (.tools/node_modules/.bin/ast-grep, or -ast-grep
// PATH), `ast-grep lsp` gets the same file, rules and keystrokes in the same
// run, interleaved keystroke by keystroke (each server sees the sync it
// declares: structls incremental changes, ast-grep the whole text), and the
// ratio of the p95s is printed.
//
// The workspace is a temporary directory holding sgconfig.yml, the rules
// (the files of -rules DIR: by default the 20 Go rules of
// rules/testdata/ruleset/go, or, with -rules "", a built-in set of five)
// and the generated file. Run it from the repository root.
//
// usage: go run ./bench/diagnostics [-n KEYSTROKES] [-lines N] [-rules DIR] [-ast-grep PATH]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

func main() {
	keystrokes := flag.Int("n", 120, "keystrokes to time (at least 100 for a p95)")
	lines := flag.Int("lines", 10000, "lines of the open Go file")
	rulesDir := flag.String("rules", "rules/testdata/ruleset/go", `a directory of Go rule files ("": a built-in set of five)`)
	astGrep := flag.String("ast-grep", ".tools/node_modules/.bin/ast-grep", "the ast-grep CLI to compare with (\"\" or missing: structls alone)")
	flag.Parse()
	if err := run(*keystrokes, *lines, *rulesDir, *astGrep); err != nil {
		fmt.Fprintln(os.Stderr, "diagnostics:", err)
		os.Exit(2)
	}
}

// builtinRules are five realistic Go rules, two of them fixable.
const builtinRules = `id: no-fmt-println
language: go
severity: warning
message: use the logger instead of fmt.Println
rule:
  pattern:
    context: func _() { fmt.Println($$$ARGS) }
    selector: call_expression
fix: log.Println($$$ARGS)
---
id: no-panic
language: go
severity: error
message: do not panic in library code
rule:
  pattern:
    context: func _() { panic($X) }
    selector: call_expression
---
id: err-compare
language: go
severity: info
message: compare errors with errors.Is
rule:
  pattern:
    context: func _() { _ = $E == io.EOF }
    selector: binary_expression
fix: errors.Is($E, io.EOF)
---
id: empty-if-body
language: go
severity: hint
message: empty if body
rule:
  kind: if_statement
  has:
    field: consequence
    kind: block
    regex: ^\{\s*\}$
---
id: sleep-in-loop
language: go
severity: warning
message: time.Sleep inside a loop
rule:
  pattern:
    context: func _() { time.Sleep($D) }
    selector: call_expression
  inside:
    kind: for_statement
    stopBy: end
`

func run(keystrokes, lines int, rulesDir, astGrep string) error {
	dir, err := os.MkdirTemp("", "structls-bench-diagnostics-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := writeWorkspace(dir, rulesDir, lines); err != nil {
		return err
	}
	ctx := context.Background()
	sessions := []*session{}
	structls, err := startStructls(ctx, dir)
	if err != nil {
		return err
	}
	sessions = append(sessions, structls)
	if _, err := os.Stat(astGrep); astGrep != "" && err == nil {
		ag, err := startAstGrep(ctx, dir, astGrep)
		if err != nil {
			return err
		}
		sessions = append(sessions, ag)
	}
	defer func() {
		for _, s := range sessions {
			s.stop()
		}
	}()
	for _, s := range sessions {
		if err := s.open(ctx, filepath.Join(dir, "big.go")); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		fmt.Printf("%s: open %d lines, %d diagnostics\n", s.name, lines, s.diagnostics)
	}
	for i := range keystrokes {
		for _, s := range sessions {
			if err := s.keystroke(ctx, i); err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
		}
	}
	fmt.Printf("keystroke → publishDiagnostics, %d keystrokes, 10,000-line Go file (measured on a shared, loaded machine):\n", keystrokes)
	for _, s := range sessions {
		slices.Sort(s.times)
		fmt.Printf("  %-9s p50 %7.1f ms   p95 %7.1f ms   max %7.1f ms\n", s.name, ms(s.pct(0.50)), ms(s.pct(0.95)), ms(s.times[len(s.times)-1]))
	}
	if len(sessions) == 2 {
		fmt.Printf("  p95 ratio structls/ast-grep: %.2f\n", ms(sessions[0].pct(0.95))/ms(sessions[1].pct(0.95)))
	}
	return nil
}

// session is one language server under test, driven by a client.Editor.
type session struct {
	name        string
	ed          *client.Editor
	fullSync    bool // send the whole text on each change (ast-grep declares full sync)
	published   chan client.PublishedDiagnostics
	uri         string
	diagnostics int // on open; every keystroke must give as many
	times       []time.Duration
	stop        func()
}

func newSession(name string) (*session, client.EditorOptions) {
	s := &session{name: name, published: make(chan client.PublishedDiagnostics, 1024)}
	return s, client.EditorOptions{OnNotify: func(method string, params json.RawMessage) {
		var p client.PublishedDiagnostics
		if method == "textDocument/publishDiagnostics" && json.Unmarshal(params, &p) == nil {
			s.published <- p
		}
	}}
}

func startStructls(ctx context.Context, dir string) (*session, error) {
	s, opts := newSession("structls")
	ed, wait := lsp.StartInProcess(ctx, lsp.Options{}, opts)
	s.ed = ed
	s.stop = func() { _ = ed.Shutdown(ctx); wait() }
	_, err := ed.Initialize(ctx, dir)
	return s, err
}

// startAstGrep runs `ast-grep lsp` in the workspace (it finds sgconfig.yml
// in its working directory).
func startAstGrep(ctx context.Context, dir, bin string) (*session, error) {
	abs, err := filepath.Abs(bin)
	if err != nil {
		return nil, err
	}
	s, opts := newSession("ast-grep")
	s.fullSync = true
	cmd := exec.Command(abs, "lsp")
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s.ed = client.NewEditor(pipe{stdout, stdin}, opts)
	s.stop = func() { _ = s.ed.Shutdown(ctx); _ = stdin.Close(); _ = cmd.Wait() }
	_, err = s.ed.Initialize(ctx, dir)
	return s, err
}

// pipe joins a child's stdout and stdin into one stream.
type pipe struct {
	io.ReadCloser
	w io.WriteCloser
}

func (p pipe) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipe) Close() error                { return errors.Join(p.ReadCloser.Close(), p.w.Close()) }

func (s *session) open(ctx context.Context, path string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if s.uri, err = s.ed.OpenFile(ctx, path, "go", string(text)); err != nil {
		return err
	}
	first, err := s.await(1)
	s.diagnostics = len(first.Diagnostics)
	return err
}

// keystroke types keystroke i: one letter at the end of the comment on
// line 3, and times it until the diagnostics of the new version arrive.
func (s *session) keystroke(ctx context.Context, i int) error {
	const commentLine, commentEnd = 2, len("// keystrokes land here") // see bigGoFile
	at := workspace.Position{Line: commentLine, Character: commentEnd + i}
	letter := string(rune('a' + i%26))
	edit := client.Edit{Range: &workspace.Range{Start: at, End: at}, Text: letter}
	if s.fullSync {
		text, _ := s.ed.BufferText(s.uri)
		lineEnd := strings.Index(text, "\n\nimport (")
		edit = client.Edit{Text: text[:lineEnd] + letter + text[lineEnd:]}
	}
	start := time.Now()
	if err := s.ed.EditBuffer(ctx, s.uri, edit); err != nil {
		return err
	}
	p, err := s.await(int32(i + 2))
	if err != nil {
		return err
	}
	s.times = append(s.times, time.Since(start))
	if len(p.Diagnostics) != s.diagnostics {
		return fmt.Errorf("keystroke %d: %d diagnostics, want %d", i, len(p.Diagnostics), s.diagnostics)
	}
	return nil
}

// await waits for the diagnostics of the given version, skipping others.
func (s *session) await(version int32) (client.PublishedDiagnostics, error) {
	timeout := time.After(60 * time.Second)
	for {
		select {
		case p := <-s.published:
			if p.Version != nil && *p.Version == version {
				return p, nil
			}
		case <-timeout:
			return client.PublishedDiagnostics{}, fmt.Errorf("no diagnostics for version %d within a minute", version)
		}
	}
}

func (s *session) pct(q float64) time.Duration { return s.times[int(q*float64(len(s.times)-1)+0.5)] }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// writeWorkspace writes sgconfig.yml, the rules and big.go.
func writeWorkspace(dir, rulesDir string, lines int) error {
	if err := os.MkdirAll(filepath.Join(dir, "rules"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "sgconfig.yml"), []byte("ruleDirs:\n  - rules\n"), 0o644); err != nil {
		return err
	}
	if rulesDir == "" {
		if err := os.WriteFile(filepath.Join(dir, "rules", "go.yml"), []byte(builtinRules), 0o644); err != nil {
			return err
		}
	} else {
		entries, err := os.ReadDir(rulesDir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(rulesDir, e.Name()))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "rules", e.Name()), data, 0o644); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(filepath.Join(dir, "big.go"), []byte(bigGoFile(lines)), 0o644)
}

// bigGoFile is a Go file of about n lines: functions of ten lines, some
// holding what the built-in rules look for.
func bigGoFile(n int) string {
	var b strings.Builder
	b.WriteString("package big\n\n// keystrokes land here\n\nimport (\n\t\"fmt\"\n\t\"io\"\n\t\"time\"\n)\n\n")
	for i, written := 0, 11; written < n; i++ {
		var f strings.Builder
		fmt.Fprintf(&f, "func f%d(r io.Reader, n int) error {\n", i)
		fmt.Fprintf(&f, "\tbuf := make([]byte, n+%d)\n", i)
		f.WriteString("\t_, err := r.Read(buf)\n")
		switch i % 20 {
		case 0:
			f.WriteString("\tfmt.Println(\"read\", n)\n")
		case 7:
			f.WriteString("\tif err == io.EOF {\n\t}\n")
		case 13:
			f.WriteString("\tfor range 3 {\n\t\ttime.Sleep(time.Millisecond)\n\t}\n")
		default:
			f.WriteString("\tn++\n")
		}
		f.WriteString("\tif n > 100 {\n\t\treturn err\n\t}\n\treturn nil\n}\n\n")
		written += strings.Count(f.String(), "\n")
		b.WriteString(f.String())
	}
	return b.String()
}
