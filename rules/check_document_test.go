package rules

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// TestCheckDocument: an open document is checked against its folder's
// project, loaded on the first check and kept for the next; a
// document in a language no rule is for has no findings; one larger than
// the size limit is not checked, and loads nothing.
func TestCheckDocument(t *testing.T) {
	dir := testutil.WriteTree(t, folderProjectTree)
	loads := 0
	projects := NewProjectCache(func(string, *FolderProject) { loads++ })
	trees := syntax.NewCache(1 << 20)
	ctx := context.Background()
	open := func(name, text string) *workspace.Document {
		path := filepath.Join(dir, name)
		o := workspace.NewOverlay()
		o.Open(workspace.PathToURI(path), "", 1, text)
		return o.Get(workspace.PathToURI(path))
	}
	src := "package main\n\nfunc main() { println(1); println(2) }\n"

	big, err := CheckDocument(ctx, projects, dir, open("main.go", src), int64(len(src)-1), trees)
	if err != nil || big.Project != nil || len(big.Findings) != 0 || loads != 0 {
		t.Fatalf("a document over the size limit: %+v, %v, %d loads; want it unchecked and nothing loaded", big, err, loads)
	}
	first, err := CheckDocument(ctx, projects, dir, open("main.go", src), int64(len(src)), trees)
	if err != nil {
		t.Fatal(err)
	}
	if loads != 1 || first.Project == nil || len(first.Findings) != 2 || first.Findings[0].RuleID != "no-println" {
		t.Fatalf("first check: %d loads, project %v, findings %+v; want the project loaded now and two no-println findings", loads, first.Project != nil, first.Findings)
	}
	again, err := CheckDocument(ctx, projects, dir, open("main.go", "package main\n"), 1<<20, trees)
	if err != nil || loads != 1 || again.Project != first.Project || len(again.Findings) != 0 {
		t.Errorf("second check: %+v, %v; want the kept project and no findings", again, err)
	}
	other, err := CheckDocument(ctx, projects, dir, open("notes.txt", "println(1)\n"), 1<<20, trees)
	if err != nil || other.Project == nil || len(other.Findings) != 0 {
		t.Errorf("a document no rule's language covers: %+v, %v; want the project and no findings", other, err)
	}
}
