package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// watchers waits for the server's file watcher registration and returns
// its relative patterns by base URI.
func watchers(t *testing.T, ed *client.Editor, folders int) map[string][]string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		regs := ed.Registrations()
		if len(regs) != 1 {
			continue
		}
		var opts struct {
			Watchers []struct {
				GlobPattern struct {
					BaseURI string `json:"baseUri"`
					Pattern string `json:"pattern"`
				} `json:"globPattern"`
			} `json:"watchers"`
		}
		if err := json.Unmarshal(regs[0].RegisterOptions, &opts); err != nil {
			t.Fatalf("registration options %s: %v", regs[0].RegisterOptions, err)
		}
		byBase := map[string][]string{}
		for _, w := range opts.Watchers {
			byBase[w.GlobPattern.BaseURI] = append(byBase[w.GlobPattern.BaseURI], w.GlobPattern.Pattern)
		}
		if len(byBase) == folders {
			return byBase
		}
	}
	t.Fatalf("registrations %+v; want one watcher registration over %d folders", ed.Registrations(), folders)
	return nil
}

// TestWatchersCoverWhatMatters checks that the server watches the files
// that shape its answers — and not "**/*", which makes eglot watch every
// directory — with a few globs per folder, re-registered when folders change.
func TestWatchersCoverWhatMatters(t *testing.T) {
	first := testutil.WriteTree(t, "-- a.txt --\nx\n")
	second := testutil.WriteTree(t, "-- b.txt --\nx\n")
	ed := newEditor(t, first, client.EditorOptions{DynamicWatch: true})
	globs := watchers(t, ed, 1)[workspace.PathToURI(first)]
	if len(globs) == 0 || len(globs) > 3 {
		t.Fatalf("globs %q; want one to three per folder", globs)
	}
	matches := func(path string) bool {
		return slices.ContainsFunc(globs, func(g string) bool { return doublestar.MatchUnvalidated(g, path) })
	}
	for _, path := range []string{"main.go", "src/app.py", "web/x.tsx", "lib/a.c++", "Makefile", "sub/CMakeLists.txt",
		"Dockerfile", "docker/Dockerfile.dev", ".gitignore", "sub/.ignore", "sgconfig.yml", "rules/no-print.yaml", "BUILD.bazel"} {
		if !matches(path) {
			t.Errorf("%s is not watched by %q", path, globs)
		}
	}
	for _, path := range []string{"notes.txt", "image.png", "build/output.o", "README"} {
		if matches(path) {
			t.Errorf("%s is watched by %q; want only the files that matter", path, globs)
		}
	}
	// eglot's glob grammar takes a brace group as "{[^][*{}]+}": no "*",
	// brackets or nested braces inside one.
	eglotGroup := regexp.MustCompile(`^[^{}]*(\{[^][*{}]+\})?[^{}]*$`)
	for _, g := range globs {
		if g == "**/*" || g == "**" {
			t.Errorf("glob %q watches everything", g)
		}
		if !eglotGroup.MatchString(g) {
			t.Errorf("glob %q has a brace group eglot cannot read", g)
		}
	}
	// A folder added later is watched too, in place of the first registration.
	if err := ed.Notify(context.Background(), "workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []map[string]string{{"uri": workspace.PathToURI(second), "name": "second"}}, "removed": []any{}}}); err != nil {
		t.Fatal(err)
	}
	both := watchers(t, ed, 2)
	if diff := cmp.Diff(globs, both[workspace.PathToURI(second)]); diff != "" {
		t.Errorf("the added folder's globs differ (-first +second):\n%s", diff)
	}
}

// nullPaths lists the JSON pointers of the null values in a document.
func nullPaths(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case nil:
			out = append(out, path)
		case map[string]any:
			for k, e := range v {
				walk(path+"/"+k, e)
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s/%d", path, i), e)
			}
		}
	}
	walk("", v)
	return out
}

// TestServerBuiltResultsHaveNoNulls checks what the lsp package builds
// itself — the initialize result and the watcher registration — for null
// values: clients iterate lists without checks.
func TestServerBuiltResultsHaveNoNulls(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nx\n")
	ed, wait := StartInProcess(context.Background(), Options{Version: "test"}, client.EditorOptions{DynamicWatch: true, WorkDoneProgress: true})
	defer func() { _ = ed.Shutdown(context.Background()); wait(); _ = ed.Close() }()
	init, err := ed.Initialize(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if nulls := nullPaths(t, init); len(nulls) != 0 {
		t.Errorf("initialize result %s has nulls at %q", init, nulls)
	}
	watchers(t, ed, 1)
	for _, r := range ed.Registrations() {
		if nulls := nullPaths(t, r.RegisterOptions); len(nulls) != 0 {
			t.Errorf("registration %s has nulls at %q", r.RegisterOptions, nulls)
		}
	}
}
