package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/grep"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/rules"
	"github.com/structls/structls/workspace"
)

// demoWorkspace is the demo's workspace, one txtar file: an installed
// binary carries it, so the demo runs from any directory.
//
//go:embed demo.txtar
var demoWorkspace []byte

// demo runs a scripted, real LSP session on the demo workspace and prints
// each step: initialize, a search, an unsaved edit in an open buffer, the
// same search seeing the unsaved text, and a clean shutdown. The workspace
// is written to a temporary directory, removed afterwards (the current
// directory is never touched), unless --root names one.
func demo(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("demo", stdout, stderr)
	root := fs.String("root", "", "write the demo workspace into this new or empty directory and keep it there afterwards "+
		"(or run again on a directory it wrote); default: a temporary directory, removed afterwards")
	if err := fs.Parse(args); err != nil {
		return exitError, err
	}
	if fs.NArg() > 0 {
		return exitError, fmt.Errorf("demo takes no arguments (got %q)", fs.Args())
	}
	if *root != "" {
		if err := demoRootReady(*root, stdout); err != nil {
			return exitError, err
		}
	} else {
		dir, err := os.MkdirTemp("", "structls-demo-")
		if err != nil {
			return exitError, fmt.Errorf("creating the demo workspace (set TMPDIR to a writable directory, or pass --root): %w", err)
		}
		defer os.RemoveAll(dir)
		if err := writeDemoWorkspace(dir); err != nil {
			return exitError, err
		}
		*root = dir
	}
	ctx := context.Background()
	step := func(format string, a ...any) { fmt.Fprintf(stdout, "\n== "+format+"\n", a...) }

	step("1. start the server in-process and initialize it on %s", *root)
	opts := client.EditorOptions{PositionEncodings: []string{"utf-16"}, WorkDoneProgress: true,
		Settings: json.RawMessage(`{"exclude": ["**/*.tmp"]}`)}
	s, err := startSession(ctx, *root, opts, lsp.Options{})
	if err != nil {
		return exitError, err
	}
	defer s.close(ctx)
	fmt.Fprintf(stdout, "   positionEncoding: %s; commands: %s\n", s.editor.Encoding(), strings.Join(lsp.Commands, ", "))

	query := grep.Query{Pattern: `TODO`, Format: "text"}
	step("2. structls.search %q over the workspace (build/ and *.log are gitignored)", query.Pattern)
	if err := demoSearch(ctx, s, query, stdout); err != nil {
		return exitError, err
	}

	mainGo := filepath.Join(s.root, "main.go")
	disk, err := os.ReadFile(mainGo)
	if err != nil {
		return exitError, err
	}
	step("3. open main.go in the editor and type a line without saving")
	uri, err := s.editor.OpenFile(ctx, mainGo, "go", string(disk))
	if err != nil {
		return exitError, err
	}
	typed := demoTyped[0]
	if err := s.editor.EditBuffer(ctx, uri, typed.edit()); err != nil {
		return exitError, err
	}
	fmt.Fprintf(stdout, "   didChange (version 2): inserted at line %d, inside main: %q\n", typed.line+1, strings.TrimSpace(typed.text))

	step("4. the same search again: the match in the unsaved buffer appears, the file on disk is untouched")
	query.Format = ""
	var res grep.Result
	if _, err := s.execute(ctx, lsp.CommandSearch, query, &res); err != nil {
		return exitError, err
	}
	for _, m := range res.Matches {
		where := "disk"
		if m.URI == uri {
			where = "unsaved buffer"
		}
		sub := m.Submatches[0].Range
		fmt.Fprintf(stdout, "   %s:%d:%d-%d  %-15s %s\n", m.Path, m.LineNumber, sub.Start.Character, sub.End.Character, "("+where+")", m.LineText)
	}

	astQuery := astgrep.Query{Pattern: demoPattern, Selector: "call_expression", Lang: "go"}
	step("5. structls.astGrep %q, selector %s: structural search; type a call into the buffer first, again without saving",
		astQuery.Pattern, astQuery.Selector)
	typed = demoTyped[1]
	if err := s.editor.EditBuffer(ctx, uri, typed.edit()); err != nil {
		return exitError, err
	}
	fmt.Fprintf(stdout, "   didChange (version 3): inserted at line %d: %q\n", typed.line+1, strings.TrimSpace(typed.text))
	var ast astgrep.Result
	if _, err := s.execute(ctx, lsp.CommandAstGrep, astQuery, &ast); err != nil {
		return exitError, err
	}
	for _, m := range ast.Matches {
		where := "disk"
		if m.URI == uri {
			where = "unsaved buffer"
		}
		fmt.Fprintf(stdout, "   %s:%d  %-16s %s   ARGS=%s\n", m.Path, m.Range.Start.Line+1, "("+where+")", m.Text, metaText(m.MetaVariables["ARGS"]))
	}
	for _, w := range ast.Warnings {
		fmt.Fprintf(stdout, "   note: %s\n", w)
	}

	if err := demoRewrite(ctx, s, uri, mainGo, stdout, step); err != nil {
		return exitError, err
	}

	scanQuery := rules.Query{}
	step("9. structls.scan: the rules of the workspace's sgconfig.yml (rules/no-os-exit.yml)")
	var scanned struct {
		Diagnostics []rules.Diagnostic `json:"diagnostics"`
	}
	if _, err := s.execute(ctx, lsp.CommandScan, scanQuery, &scanned); err != nil {
		return exitError, err
	}
	for _, d := range scanned.Diagnostics {
		fmt.Fprintf(stdout, "   %s:%d  %s[%s] %s\n", d.Path, d.Range.Start.Line+1, d.Severity, d.RuleID, d.Message)
	}

	step("10. progress the server reported (it created its own token, as for VS Code; only work that runs over 200 ms shows one)")
	events := s.editor.Progress()
	for _, p := range events {
		fmt.Fprintf(stdout, "   %s %s %s\n", p.Kind, p.Title, p.Message)
	}
	if len(events) == 0 {
		fmt.Fprintln(stdout, "   none: every request of this small workspace finished within 200 ms, so the server showed no progress")
	}
	step("11. shutdown and exit")
	return exitFound, nil
}

// demoRewrite is the demo's rewrite: a preview (nothing written), the
// apply through workspace/applyEdit into the editor's buffer (the disk
// untouched until the person saves), then a stale apply refused.
func demoRewrite(ctx context.Context, s *session, uri, mainGo string, stdout io.Writer, step func(string, ...any)) error {
	toStderr := "fmt.Fprintln(os.Stderr, $$$ARGS)"
	q := rewrite.Query{Ops: []rewrite.Op{{Pattern: demoPattern, Rewrite: &toStderr}}, Selector: "call_expression", Lang: "go", Format: "text"}
	step("6. structls.astEdit %q → %q: a preview; nothing is written", q.Ops[0].Pattern, toStderr)
	var preview struct {
		ID   string `json:"id"`
		Text string `json:"text"`
	}
	if _, err := s.execute(ctx, lsp.CommandAstEdit, q, &preview); err != nil {
		return err
	}
	printIndented(stdout, preview.Text)

	step("7. structls.applyEdit: the server re-checks the buffer's version, then sends workspace/applyEdit; the editor applies it")
	var applied struct {
		Applied           bool `json:"applied"`
		TotalReplacements int  `json:"totalReplacements"`
	}
	if _, err := s.execute(ctx, lsp.CommandApplyEdit, map[string]string{"id": preview.ID}, &applied); err != nil {
		return err
	}
	for _, r := range s.editor.EditRequests() {
		fmt.Fprintf(stdout, "   workspace/applyEdit %q: applied=%v\n", r.Label, r.Applied)
	}
	text, _ := s.editor.BufferText(uri)
	disk, err := os.ReadFile(mainGo)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "   buffer main.go: %d lines call fmt.Fprintln; main.go on disk: %d (unchanged until the editor saves)\n",
		strings.Count(text, "fmt.Fprintln("), strings.Count(string(disk), "fmt.Fprintln("))

	toPanic := "panic($CODE)"
	q = rewrite.Query{Ops: []rewrite.Op{{Pattern: "os.Exit($CODE)", Rewrite: &toPanic}}, Lang: "go"}
	step("8. a stale preview: preview %q → %q, type in the buffer, then apply", q.Ops[0].Pattern, toPanic)
	if _, err := s.execute(ctx, lsp.CommandAstEdit, q, &preview); err != nil {
		return err
	}
	at := workspace.Position{Line: 0, Character: 0}
	if err := s.editor.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: at, End: at}, Text: "// edited after the preview\n"}); err != nil {
		return err
	}
	_, err = s.execute(ctx, lsp.CommandApplyEdit, map[string]string{"id": preview.ID}, nil)
	if client.ErrorCode(err) != int(lsp.ContentModified) {
		return fmt.Errorf("the stale apply was not refused as ContentModified: %v", err)
	}
	fmt.Fprintf(stdout, "   refused (%d): %v\n", client.ErrorCode(err), err)
	return nil
}

// printIndented prints text under a demo step.
func printIndented(stdout io.Writer, text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(stdout, "   %s\n", line)
	}
}

func demoSearch(ctx context.Context, s *session, q grep.Query, stdout io.Writer) error {
	var res grep.Result
	if _, err := s.execute(ctx, lsp.CommandSearch, q, &res); err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimRight(res.Text, "\n"), "\n") {
		fmt.Fprintf(stdout, "   %s\n", line)
	}
	return nil
}

// metaText renders a $$$ capture (decoded from JSON) as its texts joined by spaces.
func metaText(v any) string {
	list, _ := v.([]any)
	var parts []string
	for _, c := range list {
		if m, ok := c.(map[string]any); ok {
			parts = append(parts, fmt.Sprint(m["text"]))
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// demoPattern is the demo's structural pattern: the call in a function
// body, picked by the selector call_expression, because on its own Go reads
// `fmt.Println($$$ARGS)` as a type conversion (docs/protocol.md, "Patterns that
// do not parse").
const demoPattern = "func _() { fmt.Println($$$ARGS) }"

// demoInsert is a line the demo types into main.go's buffer.
type demoInsert struct {
	line int // 0-based, in the buffer as it is when typed
	text string
}

func (d demoInsert) edit() client.Edit {
	at := workspace.Position{Line: d.line}
	return client.Edit{Range: &workspace.Range{Start: at, End: at}, Text: d.text}
}

// demoTyped is what the demo types, in order: a comment as the first line
// of main's body, then a call after name is declared, so that the buffer
// stays valid Go at every step.
var demoTyped = []demoInsert{
	{11, "\t// TODO(demo): this comment exists only in the unsaved buffer\n"},
	{17, "\tfmt.Println(\"unsaved\", name)\n"},
}

// demoRootReady makes dir a demo workspace: a new or empty directory gets
// the embedded one written into it (and kept); a directory that already
// holds it (from an earlier run) is used as it is; anything else is
// refused, since the demo types into main.go at fixed lines.
func demoRootReady(dir string, stdout io.Writer) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		if err := writeDemoWorkspace(dir); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote the demo workspace into %s (kept afterwards)\n", dir)
		return nil
	}
	if err != nil {
		return fmt.Errorf("--root %s: %w", dir, err)
	}
	have, err := os.ReadFile(filepath.Join(dir, "main.go"))
	for _, f := range txtar.Parse(demoWorkspace).Files {
		if f.Name == "main.go" && err == nil && bytes.Equal(have, f.Data) {
			return nil
		}
	}
	return fmt.Errorf("--root %s is not the demo workspace (the demo types into its main.go at fixed lines, so it needs the built-in one): "+
		"name a new or empty directory and the demo writes its workspace there and keeps it, or omit --root", dir)
}

// writeDemoWorkspace writes the embedded demo workspace into dir.
func writeDemoWorkspace(dir string) error {
	for _, f := range txtar.Parse(demoWorkspace).Files {
		if !filepath.IsLocal(f.Name) {
			return fmt.Errorf("the embedded demo workspace names %q, outside its directory: rebuild structls", f.Name)
		}
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("writing the demo workspace (check that %s is writable): %w", dir, err)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			return fmt.Errorf("writing the demo workspace (check that %s is writable): %w", dir, err)
		}
	}
	return nil
}
