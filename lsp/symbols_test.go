package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	python "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

func init() { lang.Register("python", python.Language) }

// docSymbol is a DocumentSymbol as the tests read it.
type docSymbol struct {
	Name           string
	Kind           int
	Range          workspace.Range
	SelectionRange workspace.Range
	Children       []docSymbol
}

// symbolInfo is a SymbolInformation as the tests read it.
type symbolInfo struct {
	Name          string
	Kind          int
	ContainerName string
	Location      struct {
		URI   string
		Range workspace.Range
	}
}

const symbolsTree = `
-- a.go --
package a

import "fmt"

// Point is a point.
type Point struct {
	X, y int
}

func (p *Point) String() string { return fmt.Sprint(p.X) }

const Origin = 0
-- b.py --
class Parser:
    def parse(self): pass

def _helper(): pass
`

// outlineNames renders document symbols as "kind name [children]" lines.
func outlineNames(syms []docSymbol, indent string) []string {
	var out []string
	for _, s := range syms {
		out = append(out, fmt.Sprintf("%s%d %s %d:%d-%d:%d sel %d:%d", indent, s.Kind, s.Name,
			s.Range.Start.Line, s.Range.Start.Character, s.Range.End.Line, s.Range.End.Character,
			s.SelectionRange.Start.Line, s.SelectionRange.Start.Character))
		out = append(out, outlineNames(s.Children, indent+"  ")...)
	}
	return out
}

// TestDocumentSymbolHierarchical: a Go file's symbols nest (fields under the
// struct), methods are named (T).M as gopls names them, imports are left
// out, and an unsaved edit in the buffer is seen; the same with the parse
// cache off, where the file is parsed without its function bodies (whose
// braces in strings must not mislead the scan that finds them).
func TestDocumentSymbolHierarchical(t *testing.T) {
	for _, init := range []json.RawMessage{nil, json.RawMessage(`{"structls": {"parseCacheMB": 0}}`)} {
		dir := testutil.WriteTree(t, symbolsTree)
		ed := newEditor(t, dir, client.EditorOptions{InitOptions: init})
		ctx := context.Background()
		path := filepath.Join(dir, "a.go")
		src, _ := os.ReadFile(path)
		docURI, err := ed.OpenFile(ctx, path, "go", string(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := ed.EditBuffer(ctx, docURI, client.Edit{Range: &workspace.Range{Start: workspace.Position{Line: 12}, End: workspace.Position{Line: 12}},
			Text: "func Unsaved() { _ = \"}{\" }\n"}); err != nil {
			t.Fatal(err)
		}
		var syms []docSymbol
		if err := ed.Call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": docURI}}, &syms); err != nil {
			t.Fatal(err)
		}
		got := outlineNames(syms, "")
		want := []string{
			"23 Point 5:5-7:1 sel 5:5",
			"  8 X 6:1-6:9 sel 6:1",
			"  8 y 6:1-6:9 sel 6:4",
			"6 (*Point).String 9:0-9:58 sel 9:16",
			"14 Origin 11:6-11:16 sel 11:6",
			"12 Unsaved 12:0-12:27 sel 12:5",
		}
		if !slices.Equal(got, want) {
			t.Errorf("settings %q: document symbols:\n%s\nwant:\n%s", init, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestDocumentSymbolFlat: a client without hierarchical support gets
// SymbolInformation, members carrying their container's name.
func TestDocumentSymbolFlat(t *testing.T) {
	dir := testutil.WriteTree(t, symbolsTree)
	ed := newEditor(t, dir, client.EditorOptions{FlatSymbols: true})
	var syms []symbolInfo
	docURI := workspace.PathToURI(filepath.Join(dir, "b.py"))
	if err := ed.Call(context.Background(), "textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": docURI}}, &syms); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range syms {
		got = append(got, fmt.Sprintf("%d %s<%s> %d", s.Kind, s.Name, s.ContainerName, s.Location.Range.Start.Line))
		if s.Location.URI != docURI {
			t.Errorf("%s: uri %s, want %s", s.Name, s.Location.URI, docURI)
		}
	}
	want := []string{"5 Parser<> 0", "6 parse<Parser> 1", "12 _helper<> 3"}
	if !slices.Equal(got, want) {
		t.Errorf("flat symbols %q, want %q", got, want)
	}
}

// TestDocumentSymbolOutsideWorkspace: a file outside the folders that is
// not open, or of a language without an outline, has no symbols (and no
// error); a buffer open outside the folders has its symbols.
func TestDocumentSymbolOutsideWorkspace(t *testing.T) {
	dir := testutil.WriteTree(t, symbolsTree+"-- data.json --\n{\"a\": 1}\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	elsewhere := filepath.Join(t.TempDir(), "scratch.go")
	openURI, err := ed.OpenFile(context.Background(), elsewhere, "go", "package p\n\nfunc Open() {}\n")
	if err != nil {
		t.Fatal(err)
	}
	var open []docSymbol
	if err := ed.Call(context.Background(), "textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": openURI}}, &open); err != nil || len(open) != 1 || open[0].Name != "Open" {
		t.Errorf("a buffer open outside the folders: %+v, %v; want the symbol Open", open, err)
	}
	for _, u := range []string{"file:///elsewhere/x.go", workspace.PathToURI(filepath.Join(dir, "data.json")), workspace.PathToURI(filepath.Join(dir, "missing.go"))} {
		var syms []docSymbol
		if err := ed.Call(context.Background(), "textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": u}}, &syms); err != nil {
			t.Errorf("%s: %v", u, err)
		}
		if len(syms) != 0 {
			t.Errorf("%s: %d symbols, want none", u, len(syms))
		}
	}
}

// workspaceSymbols runs workspace/symbol and returns "name<container>" in order.
func workspaceSymbols(t *testing.T, ed *client.Editor, query string) []string {
	t.Helper()
	var syms []symbolInfo
	if err := ed.Call(context.Background(), "workspace/symbol", map[string]any{"query": query}, &syms); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range syms {
		out = append(out, s.Name)
	}
	return out
}

// TestWorkspaceSymbolRanking: exact (case-exact first) > prefix > substring
// > subsequence; shorter names first within a rank.
func TestWorkspaceSymbolRanking(t *testing.T) {
	dir := testutil.WriteTree(t, `
-- a.go --
package a

func pXaXrXsXe() {}
func reparse()   {}
func ParseAll()  {}
func Parse()     {}
func parse()     {}
func unrelated() {}
func ParseX()    {}
`)
	ed := newEditor(t, dir, client.EditorOptions{})
	got := workspaceSymbols(t, ed, "parse")
	want := []string{"parse", "Parse", "ParseX", "ParseAll", "reparse", "pXaXrXsXe"}
	if !slices.Equal(got, want) {
		t.Errorf("workspace/symbol parse = %q, want %q", got, want)
	}
}

// TestWorkspaceSymbolSeesChanges: the index re-reads a file changed on
// disk, drops a deleted one, and prefers an open buffer's unsaved text.
func TestWorkspaceSymbolSeesChanges(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc Before() {}\n-- b.go --\npackage a\n\nfunc Gone() {}\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	if got := workspaceSymbols(t, ed, "o"); !slices.Equal(got, []string{"Gone", "Before"}) {
		t.Fatalf("first query: %q", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc AfterEdit() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "b.go")); err != nil {
		t.Fatal(err)
	}
	if got := workspaceSymbols(t, ed, "after"); !slices.Equal(got, []string{"AfterEdit"}) {
		t.Errorf("after the disk changed: %q, want [AfterEdit]", got)
	}
	if got := workspaceSymbols(t, ed, "gone"); len(got) != 0 {
		t.Errorf("a deleted file's symbol is still found: %q", got)
	}
	if _, err := ed.OpenFile(context.Background(), filepath.Join(dir, "a.go"), "go", "package a\n\nfunc InBuffer() {}\n"); err != nil {
		t.Fatal(err)
	}
	if got := workspaceSymbols(t, ed, "in"); !slices.Equal(got, []string{"InBuffer"}) {
		t.Errorf("with the file open: %q, want [InBuffer]", got)
	}
}

// TestWorkspaceSymbolPartialResults: with a partialResultToken the symbols
// arrive as $/progress batches, best first, and the reply is empty.
func TestWorkspaceSymbolPartialResults(t *testing.T) {
	var src strings.Builder
	src.WriteString("package a\n\n")
	for i := range 120 {
		fmt.Fprintf(&src, "func Sym%03d() {}\n", i)
	}
	dir := testutil.WriteTree(t, "-- a.go --\n"+src.String())
	var mu sync.Mutex
	var batches [][]symbolInfo
	ed := newEditor(t, dir, client.EditorOptions{OnNotify: func(method string, params json.RawMessage) {
		var p struct {
			Token string
			Value []symbolInfo
		}
		if method == "$/progress" && json.Unmarshal(params, &p) == nil && p.Token == "partial-1" {
			mu.Lock()
			batches = append(batches, p.Value)
			mu.Unlock()
		}
	}})
	var reply []symbolInfo
	if err := ed.Call(context.Background(), "workspace/symbol", map[string]any{"query": "sym", "partialResultToken": "partial-1"}, &reply); err != nil {
		t.Fatal(err)
	}
	if len(reply) != 0 {
		t.Errorf("reply holds %d symbols; with partial results it must be empty", len(reply))
	}
	full := workspaceSymbols(t, ed, "sym") // the notifications came before the first reply
	mu.Lock()
	defer mu.Unlock()
	var streamed []string
	for _, b := range batches {
		for _, s := range b {
			streamed = append(streamed, s.Name)
		}
	}
	if len(batches) != 3 || !slices.Equal(streamed, full) {
		t.Errorf("%d batches of %d symbols; want 3 batches holding the %d of the plain reply, in its order", len(batches), len(streamed), len(full))
	}
}

// TestWorkspaceSymbolCancel: $/cancelRequest stops a cold index of a large
// workspace with RequestCancelled (the raw client's read deadline catches
// a hang).
func TestWorkspaceSymbolCancel(t *testing.T) {
	dir := t.TempDir()
	body := "package p\n\n" + strings.Repeat("func F() { x := 1; _ = x }\n", 2000)
	for i := range 400 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.go", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newRawClient(t)
	c.initialize(dir)
	c.send(7, "workspace/symbol", map[string]any{"query": "F"})
	c.send(nil, "$/cancelRequest", map[string]any{"id": 7})
	if m := c.reply("7"); m.Error == nil || m.Error.Code != int(RequestCancelled) {
		t.Errorf("workspace/symbol after $/cancelRequest: error %+v, result of %d bytes; want RequestCancelled", m.Error, len(m.Result))
	}
	c.send(99, "shutdown", nil)
	c.reply("99")
	c.send(nil, "exit", nil)
	<-c.code
}

// TestWorkspaceSymbolWatchedFiles: when the client watches files for the
// server, a warm query trusts the last walk until didChangeWatchedFiles
// reports a change; open buffers are always seen.
func TestWorkspaceSymbolWatchedFiles(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc First() {}\n")
	ed := newEditor(t, dir, client.EditorOptions{DynamicWatch: true})
	ctx := context.Background()
	for deadline := time.Now().Add(10 * time.Second); len(ed.Registrations()) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if got := workspaceSymbols(t, ed, "first"); !slices.Equal(got, []string{"First"}) {
		t.Fatalf("first query: %q", got)
	}
	path := filepath.Join(dir, "b.go")
	if err := os.WriteFile(path, []byte("package a\n\nfunc Second() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := workspaceSymbols(t, ed, "second"); len(got) != 0 {
		t.Errorf("before the watcher reported b.go: %q; the trusted index should not have walked", got)
	}
	if err := ed.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": workspace.PathToURI(path), "type": 1}}}); err != nil {
		t.Fatal(err)
	}
	if got := workspaceSymbols(t, ed, "second"); !slices.Equal(got, []string{"Second"}) {
		t.Errorf("after the watcher reported b.go: %q, want [Second]", got)
	}
	if _, err := ed.OpenFile(ctx, filepath.Join(dir, "a.go"), "go", "package a\n\nfunc Renamed() {}\n"); err != nil {
		t.Fatal(err)
	}
	if got := workspaceSymbols(t, ed, "renamed"); !slices.Equal(got, []string{"Renamed"}) {
		t.Errorf("an open buffer: %q, want [Renamed]", got)
	}
}

// TestParseCacheSettingHoldsForSymbols: parseCacheMB applies from
// initialize on, whatever request comes first: documentSymbol with the
// cache off keeps no tree (it used to fill the cache until a command
// that set the budget ran).
func TestParseCacheSettingHoldsForSymbols(t *testing.T) {
	dir := testutil.WriteTree(t, symbolsTree)
	ed, srv := startServer(t, dir, client.EditorOptions{InitOptions: json.RawMessage(`{"structls": {"parseCacheMB": 0, "backgroundParse": false}}`)})
	docURI := workspace.PathToURI(filepath.Join(dir, "a.go"))
	var syms []docSymbol
	if err := ed.Call(context.Background(), "textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": docURI}}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) == 0 {
		t.Fatal("no symbols")
	}
	if st := srv.parseCache.Stats(); st.Trees != 0 {
		t.Errorf("the parse cache holds %d trees with parseCacheMB 0; want none", st.Trees)
	}
}
