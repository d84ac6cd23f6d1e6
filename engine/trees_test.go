package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/outline"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/rules"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
	"github.com/structls/structls/xray"
)

// The one file of the tests below, and the text it changes to: as long,
// so that only the stamp's times and the bytes tell them apart.
const (
	oldText = "package p\n\nfunc f1() { f(1) }\n"
	newText = "package p\n\nfunc f2() { f(2) }\n"
)

// engines are the engines that parse, each run over env and reduced to
// what it saw of the file: a text holding "1" for oldText, "2" for newText.
var engines = map[string]func(t *testing.T, env engine.Env) string{
	"astgrep": func(t *testing.T, env engine.Env) string {
		all := 0 // one pass, building every match: a page's second pass would take the tree the first cached
		res, err := astgrep.Search(context.Background(), env, astgrep.Query{Pattern: "f($A)", Limit: &all})
		if err != nil || len(res.Matches) != 1 {
			t.Fatalf("astgrep: %v, %v; want one match", res, err)
		}
		return res.Matches[0].Text
	},
	"xray": func(t *testing.T, env engine.Env) string {
		res, err := xray.Search(context.Background(), env, xray.Query{Driver: "func", Evaluator: `return {"matches": [{"line_number": 3}]}`})
		if err != nil || len(res.Matches) != 1 {
			t.Fatalf("xray: %+v, %v; want one match", res, err)
		}
		return res.Matches[0].LineContent
	},
	"outline": func(t *testing.T, env engine.Env) string {
		res, err := outline.Search(context.Background(), env, outline.Query{Items: outline.ItemsAll})
		if err != nil || len(res.Files) != 1 || len(res.Files[0].Items) != 1 {
			t.Fatalf("outline: %+v, %v; want one file of one item", res, err)
		}
		return res.Files[0].Items[0].Name
	},
	"rewrite": func(t *testing.T, env engine.Env) string {
		to := "g($A)"
		plan, err := rewrite.Preview(context.Background(), env, rewrite.Query{Ops: []rewrite.Op{{Pattern: "f($A)", Rewrite: &to}}})
		if err != nil {
			t.Fatal(err)
		}
		res := plan.Result()
		if len(res.Files) != 1 || len(res.Files[0].Replacements) != 1 {
			t.Fatalf("rewrite: %+v; want one replacement", res)
		}
		return res.Files[0].Replacements[0].Before
	},
	"rules": func(t *testing.T, env engine.Env) string {
		res, err := rules.Scan(context.Background(), env, rules.Query{Rules: "id: call\nlanguage: go\nrule:\n  pattern: f($A)\nmessage: a call\n"})
		if err != nil || len(res.Diagnostics) != 1 {
			t.Fatalf("rules: %+v, %v; want one diagnostic", res, err)
		}
		return res.Diagnostics[0].Text
	},
}

// TestEveryEngineReadsThroughTheParseCache: every engine that parses takes
// its trees through the Env's parse cache as a server keeps it: a second
// query over a file on disk unchanged since the first takes the tree
// without reading the file, and none ever answers from an old text — not
// after the file is rewritten on disk (the same size, its mtime put back:
// only the ctime shows it), nor when an editor holds other text for it in
// the overlay.
func TestEveryEngineReadsThroughTheParseCache(t *testing.T) {
	for name, run := range engines {
		t.Run(name, func(t *testing.T) {
			for _, change := range []string{"unchanged", "rewritten on disk", "open in the editor"} {
				t.Run(change, func(t *testing.T) {
					dir := testutil.WriteTree(t, "-- a.go --\n"+oldText)
					path := filepath.Join(dir, "a.go")
					folder, err := workspace.NewFolder(dir, "test")
					if err != nil {
						t.Fatal(err)
					}
					files := parsecache.NewFileTrees()
					files.Now = func() time.Time { return time.Now().Add(time.Hour) } // the file just written counts as settled
					env := engine.Env{Snapshot: workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil),
						Encoding: workspace.UTF16, Trees: parsecache.Trees{Cache: syntax.NewCache(64 << 20), Files: files}}
					if got := run(t, env); !strings.Contains(got, "1") {
						t.Fatalf("the first query saw %q; want the text of f1", got)
					}
					want, served := "1", true
					switch change {
					case "rewritten on disk":
						rewriteKeepingTimes(t, path, newText)
						want, served = "2", false
					case "open in the editor":
						doc := &workspace.Document{URI: "file://" + path, Path: path, LanguageID: "go", Version: 2, Content: []byte(newText)}
						env.Snapshot = workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, map[string]*workspace.Document{doc.URI: doc})
						want, served = "2", false
					}
					before := files.Served()
					if got := run(t, env); !strings.Contains(got, want) {
						t.Errorf("after the file was %s the query saw %q; want the text holding %s", change, got, want)
					}
					if got := files.Served() > before; got != served {
						t.Errorf("the second query took the tree without reading the file: %v; want %v", got, served)
					}
				})
			}
		})
	}
}

// rewriteKeepingTimes writes text over the file at path, of the same
// size, and puts its mtime back: only the ctime tells the versions apart.
func rewriteKeepingTimes(t *testing.T, path, text string) {
	t.Helper()
	before := statOf(t, path)
	mtime := time.Unix(0, syscall.TimespecToNsec(before.Mtim))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		now := statOf(t, path)
		if now.Ctim != before.Ctim {
			if now.Size != before.Size || now.Mtim != before.Mtim || now.Ino != before.Ino {
				t.Fatalf("the rewrite changed more than the ctime: %+v, was %+v", now, before)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ctime of %s did not change in 10 s", path)
		}
	}
}

func statOf(t *testing.T, path string) syscall.Stat_t {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	return st
}
