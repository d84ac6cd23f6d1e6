package lsp

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// stdioConn joins a process's stdout and stdin into one stream.
type stdioConn struct {
	io.Reader
	io.WriteCloser
}

// startGopls starts gopls serving an editor over stdio, initialised on dir.
func startGopls(t *testing.T, bin, dir string) *client.Editor {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ed := client.NewEditor(stdioConn{stdout, stdin}, client.EditorOptions{})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = ed.Shutdown(ctx)
		_ = ed.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := ed.Initialize(ctx, dir); err != nil {
		t.Fatalf("gopls initialize: %v", err)
	}
	return ed
}

// stdlibSample picks n Go files of the standard library, spread evenly
// over it in path order (testdata left out: much of it does not parse).
func stdlibSample(t *testing.T, root string, n int) []string {
	t.Helper()
	var all []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			all = append(all, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(all)
	var out []string
	for i := 0; i < n && i*len(all)/n < len(all); i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

// symbolLines renders document symbols as one line each (name, kind, range,
// selection range), children indented under their parent; siblings sorted
// by position, so the comparison does not depend on the order of a reply.
func symbolLines(syms []docSymbol, indent string) []string {
	sort.SliceStable(syms, func(i, j int) bool {
		a, b := syms[i].SelectionRange.Start, syms[j].SelectionRange.Start
		return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
	})
	var out []string
	for _, s := range syms {
		out = append(out, fmt.Sprintf("%s%s kind=%d %s sel=%s", indent, s.Name, s.Kind, rangeText(s.Range), rangeText(s.SelectionRange)))
		out = append(out, symbolLines(s.Children, indent+"  ")...)
	}
	return out
}

func rangeText(r workspace.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
}

// TestDocumentSymbolMatchesGopls: on 200 files of the Go standard library,
// structls's document symbols and gopls's have the same names, kinds,
// ranges, selection ranges and nesting.
func TestDocumentSymbolMatchesGopls(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gopls on the standard library")
	}
	bin := testutil.Gopls(t)
	root := filepath.Join(runtime.GOROOT(), "src")
	gopls := startGopls(t, bin, root)
	ours := newEditor(t, root, client.EditorOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	disagree := 0
	files := stdlibSample(t, root, 200)
	for _, path := range files {
		uri := workspace.PathToURI(path)
		params := map[string]any{"textDocument": map[string]string{"uri": uri}}
		var want, got []docSymbol
		if err := gopls.Call(ctx, "textDocument/documentSymbol", params, &want); err != nil {
			t.Fatalf("gopls on %s: %v", path, err)
		}
		if err := ours.Call(ctx, "textDocument/documentSymbol", params, &got); err != nil {
			t.Fatalf("structls on %s: %v", path, err)
		}
		w, g := symbolLines(want, ""), symbolLines(got, "")
		if d := firstDifference(w, g); d != "" {
			disagree++
			if disagree <= 10 {
				t.Errorf("%s: %s", path, d)
			}
		}
	}
	t.Logf("%d files compared, %d disagree", len(files), disagree)
}

// firstDifference describes where two symbol listings first differ.
func firstDifference(want, got []string) string {
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("symbol %d: gopls %q, structls %q", i, w, g)
		}
	}
	return ""
}
