package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
)

// outlineReply is the part of a structls.outline result the tests read.
type outlineReply struct {
	Files []struct {
		Path  string
		Items []struct{ Name string }
	}
	Text string
}

func outlineOf(t *testing.T, ed *client.Editor, q map[string]any) outlineReply {
	t.Helper()
	raw, err := ed.ExecuteCommand(context.Background(), CommandOutline, q)
	if err != nil {
		t.Fatal(err)
	}
	var r outlineReply
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestOutlineKeepsOpenBuffersWhole: files read from disk after an open
// buffer must not be read into the buffer's bytes (the read buffer is
// reused from file to file, never an editor's text): the buffer's symbols
// are the same after an outline of the whole folder.
func TestOutlineKeepsOpenBuffersWhole(t *testing.T) {
	dir := testutil.WriteTree(t, `
-- a.go --
package a

func OnDisk() {}
-- b.go --
package a

func Bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb() {}
-- c.go --
package a

func C() {}
`)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	buffer := "package a\n\nfunc InTheBuffer() {}\n" + strings.Repeat("// padding so the buffer has room for b.go\n", 4)
	if _, err := ed.OpenFile(ctx, filepath.Join(dir, "a.go"), "go", buffer); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		r := outlineOf(t, ed, map[string]any{"items": "all"})
		var names []string
		for _, f := range r.Files {
			for _, it := range f.Items {
				names = append(names, f.Path+":"+it.Name)
			}
		}
		want := []string{"a.go:InTheBuffer", "b.go:Bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "c.go:C"}
		if !slices.Equal(names, want) {
			t.Fatalf("outline %q, want %q", names, want)
		}
	}
	if disk, _ := os.ReadFile(filepath.Join(dir, "a.go")); !strings.Contains(string(disk), "OnDisk") {
		t.Errorf("a.go on disk changed: %q", disk)
	}
}

// TestOutlineCommand: the command is listed, decodes its argument by exact
// field names, and refuses bad input with InvalidParams.
func TestOutlineCommand(t *testing.T) {
	if !slices.Contains(Commands, CommandOutline) {
		t.Errorf("Commands %v lacks %s", Commands, CommandOutline)
	}
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc A() {}\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	for _, c := range []struct {
		arg  map[string]any
		want string
	}{
		{map[string]any{"veiw": "names"}, `unknown field "veiw" (did you mean view?)`},
		{map[string]any{"view": "full"}, "use one of auto, names, signatures, digest, expanded"},
		{map[string]any{"paths": []string{"../outside"}}, "outside"},
	} {
		_, err := ed.ExecuteCommand(context.Background(), CommandOutline, c.arg)
		if client.ErrorCode(err) != -32602 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v; want InvalidParams mentioning %q", c.arg, err, c.want)
		}
	}
	if r := outlineOf(t, ed, map[string]any{"paths": []string{"a.go"}, "format": "text"}); r.Text != "a.go\n3: func A()\n" {
		t.Errorf("text %q", r.Text)
	}
}
