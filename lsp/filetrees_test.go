package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// TestTrustedStampsServeNoChangedFile: the server takes a file's cached
// tree without reading the file while the file's stamp is unchanged; here
// every stamp is trusted (the clock runs an hour ahead) and each change is
// one the stamp cannot show (the new stamp is recorded for the old text, as
// a write in the same clock tick would leave it). A watched-file event, a
// save and an open buffer each still give the new text.
func TestTrustedStampsServeNoChangedFile(t *testing.T) {
	dir := goProject(t, 2)
	ed, srv := startServer(t, dir, client.EditorOptions{DynamicWatch: true,
		InitOptions: json.RawMessage(`{"structls": {"backgroundParse": false}}`)})
	srv.warmer.files.Now = func() time.Time { return time.Now().Add(time.Hour) } // no request has run yet
	ctx := context.Background()
	path := filepath.Join(dir, "p0", "f.go")
	uri := workspace.PathToURI(path)
	query := map[string]any{"pattern": "return $X", "lang": "go", "limit": 0, "paths": []string{"p0"}}
	check := func(step, want string) {
		t.Helper()
		if got := astGrepTexts(t, ed, query); !slices.Equal(got, []string{"p0/f.go:return " + want}) {
			t.Errorf("%s: matches %q; want only return %s", step, got, want)
		}
	}
	notify := func(method string, params any) {
		t.Helper()
		runs := srv.warmer.finishedRuns()
		if err := ed.Notify(ctx, method, params); err != nil {
			t.Fatal(err)
		}
		waitRuns(t, srv, runs+1) // the notification has been handled
	}
	file := walkedFile(t, dir, "p0/f.go")
	writeReturn(t, path, "first")
	check("first query", "first")

	writeReturn(t, path, "second")
	hideChange(t, srv, dir, file, "first")
	check("a change the stamp cannot show, not reported (what the server cannot know)", "first")
	notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": uri, "type": 2}}})
	check("the same, reported by a watched-file event", "second")

	writeReturn(t, path, "third")
	hideChange(t, srv, dir, file, "second")
	notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	check("a change the stamp cannot show, saved", "third")

	buffer, err := ed.OpenFile(ctx, path, "go", returnText("inBuffer"))
	if err != nil {
		t.Fatal(err)
	}
	check("opened with other text", "inBuffer")
	if err := ed.CloseFile(ctx, buffer); err != nil {
		t.Fatal(err)
	}
	check("closed again", "third")
}

// returnText is p0/f.go returning ret.
func returnText(ret string) string {
	return fmt.Sprintf("package p0\n\nfunc F() error {\n\treturn %s\n}\n", ret)
}

// writeReturn writes returnText(ret) to path.
func writeReturn(t *testing.T, path, ret string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(returnText(ret)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// walkedFile is the file rel of the folder dir as a walk finds it.
func walkedFile(t *testing.T, dir, rel string) workspace.File {
	t.Helper()
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	files, err := snap.Walk(context.Background(), []workspace.Target{{Base: folder.Real, IsDir: true}}, workspace.WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Rel == rel {
			return f
		}
	}
	t.Fatalf("the walk of %s did not find %s", dir, rel)
	return workspace.File{}
}

// hideChange records the current stamp of the file (of the folder dir,
// just rewritten) for the text it had before, returning was: what a change
// the stamp cannot show leaves behind.
func hideChange(t *testing.T, srv *Server, dir string, f workspace.File, was string) {
	t.Helper()
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	stamp, err := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil).Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	goLang, err := lang.Lookup("go")
	if err != nil {
		t.Fatal(err)
	}
	srv.warmer.files.Remember(f, stamp, goLang.Grammar(), []byte(returnText(was)), srv.parseCache)
}
