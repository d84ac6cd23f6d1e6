package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// startServer starts a server like newEditor and returns it too, so the
// test can read its counters.
func startServer(t *testing.T, dir string, opts client.EditorOptions) (*client.Editor, *Server) {
	t.Helper()
	servers := make(chan *Server, 1)
	testHookServe = func(s *Server) { servers <- s }
	defer func() { testHookServe = nil }()
	ed := newEditor(t, dir, opts)
	return ed, <-servers
}

// waitRuns waits until the server's background parsing has finished n runs.
func waitRuns(t *testing.T, s *Server, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if s.warmer.finishedRuns() >= n {
			return
		}
	}
	t.Fatalf("background parsing finished %d runs in 30 s; want %d", s.warmer.finishedRuns(), n)
}

// goProject writes n Go files, each with a function returning err.
func goProject(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "-- p%d/f.go --\npackage p%d\n\nfunc F%d() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n", i, i, i)
	}
	return testutil.WriteTree(t, b.String())
}

// anyIf is a query with no literal a file could be skipped by: every Go
// file is parsed to answer it.
var anyIf = map[string]any{"pattern": "if $C { $$$ }", "lang": "go", "limit": 0}

// astGrepTexts runs structls.astGrep and returns "path:text" of each match.
func astGrepTexts(t *testing.T, ed *client.Editor, q map[string]any) []string {
	t.Helper()
	raw, err := ed.ExecuteCommand(context.Background(), CommandAstGrep, q)
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ Matches []struct{ Path, Text string } }
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range res.Matches {
		out = append(out, m.Path+":"+m.Text)
	}
	return out
}

// TestBackgroundParseWarmsTheCache: once the background run has finished,
// a query with no literal parses nothing, and answers as a server without
// background parsing does.
func TestBackgroundParseWarmsTheCache(t *testing.T) {
	dir := goProject(t, 12)
	ed, srv := startServer(t, dir, client.EditorOptions{})
	waitRuns(t, srv, 1)
	if n := srv.parseCache.Parses(); n != 12 {
		t.Fatalf("background parsing parsed %d files; want 12", n)
	}
	got := astGrepTexts(t, ed, anyIf)
	if n := srv.parseCache.Parses(); n != 12 {
		t.Errorf("the query after background parsing parsed %d files; want 0", n-12)
	}
	cold, coldSrv := startServer(t, dir, client.EditorOptions{InitOptions: json.RawMessage(`{"structls": {"backgroundParse": false}}`)})
	want := astGrepTexts(t, cold, anyIf)
	if len(got) != 12 || !slices.Equal(got, want) {
		t.Errorf("warm matches %q;\nwithout background parsing %q", got, want)
	}
	waitRuns(t, coldSrv, 1)
	if n := coldSrv.parseCache.Parses(); n != 12 {
		t.Errorf("with backgroundParse false, %d parses in all; want the query's 12 only", n)
	}
}

// TestBackgroundParseOff: with the setting off nothing is parsed in the
// background; turning it on (a configuration change) parses the workspace.
func TestBackgroundParseOff(t *testing.T) {
	dir := goProject(t, 3)
	settings := json.RawMessage(`{"backgroundParse": false}`)
	ed, srv := startServer(t, dir, client.EditorOptions{Settings: settings})
	waitRuns(t, srv, 1)
	if n := srv.parseCache.Parses(); n != 0 {
		t.Fatalf("%d files parsed with backgroundParse false; want 0", n)
	}
	ed.SetSettings(json.RawMessage(`{"backgroundParse": true}`))
	if err := ed.Notify(context.Background(), "workspace/didChangeConfiguration", map[string]any{"settings": nil}); err != nil {
		t.Fatal(err)
	}
	waitRuns(t, srv, 2)
	if n := srv.parseCache.Parses(); n != 3 {
		t.Errorf("%d files parsed after backgroundParse was turned on; want 3", n)
	}
}

// TestQueryFirstGetsTheSameResult: a query that arrives while background
// parsing is held back (a request runs) caches the trees it parses, as a
// query with backgroundParse off does, and answers exactly as a query
// after background parsing.
func TestQueryFirstGetsTheSameResult(t *testing.T) {
	dir := goProject(t, 8)
	ed2, srv2 := startServer(t, dir, client.EditorOptions{})
	waitRuns(t, srv2, 1)
	warm := astGrepTexts(t, ed2, anyIf)
	if len(warm) != 8 {
		t.Fatalf("after background parsing: %q; want 8 matches", warm)
	}
	for _, tc := range []struct {
		name     string
		settings string
	}{
		{"background parsing held back", `{}`},
		{"backgroundParse off", `{"backgroundParse": false}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ed, srv := startWarmupHeld(t, dir, client.EditorOptions{Settings: json.RawMessage(tc.settings)})
			if first := astGrepTexts(t, ed, anyIf); !slices.Equal(first, warm) {
				t.Errorf("first query %q;\nafter background parsing %q", first, warm)
			}
			if n := srv.parseCache.Stats().Trees; n != 8 {
				t.Errorf("the first query left %d trees in the cache; want 8", n)
			}
		})
	}
}

// startWarmupHeld starts a server whose background parsing never gets
// to run: the test holds its gate busy, as a request would, for good. So
// every query it answers runs while background parsing has not finished.
func startWarmupHeld(t *testing.T, dir string, opts client.EditorOptions) (*client.Editor, *Server) {
	t.Helper()
	servers := make(chan *Server, 1)
	testHookServe = func(s *Server) {
		s.warmer.gate.Busy() // never released
		servers <- s
	}
	defer func() { testHookServe = nil }()
	ed := newEditor(t, dir, opts)
	return ed, <-servers
}

// returnAny is a query whose pattern starts with another kind than
// anyIf's: a tree cached whole serves both.
var returnAny = map[string]any{"pattern": "return $X", "lang": "go", "limit": 0}

// TestWarmDuringWarmup: while background parsing has not finished, the
// trees the first query parses serve the queries after it, of its pattern
// or another: they parse nothing, and answer as a server without
// background parsing does.
func TestWarmDuringWarmup(t *testing.T) {
	dir := goProject(t, 8)
	ed, srv := startWarmupHeld(t, dir, client.EditorOptions{})
	off, _ := startServer(t, dir, client.EditorOptions{InitOptions: json.RawMessage(`{"structls": {"backgroundParse": false}}`)})
	for i, q := range []map[string]any{anyIf, anyIf, returnAny} {
		before := srv.parseCache.Parses()
		got := astGrepTexts(t, ed, q)
		if want := astGrepTexts(t, off, q); len(got) < 8 || !slices.Equal(got, want) {
			t.Errorf("query %d (%s) during warm-up: %q;\nwithout background parsing %q", i+1, q["pattern"], got, want)
		}
		parsed := srv.parseCache.Parses() - before
		if i == 0 && parsed != 8 {
			t.Errorf("the first query parsed %d files; want 8", parsed)
		}
		if i > 0 && parsed != 0 {
			t.Errorf("query %d (%s) parsed %d files; want 0 (the first query's trees)", i+1, q["pattern"], parsed)
		}
	}
	if !srv.warmer.pending() || srv.warmer.finishedRuns() != 0 {
		t.Fatal("background parsing finished during the test; it was to be held back")
	}
}

// TestFirstQueryDuringWarmupParsesEveryFile: while background parsing
// has not finished, a query also parses (and caches) the files its pattern
// cannot match, those lacking a literal of it: a later query that needs
// exactly those files parses nothing, and every answer is the one a server
// without background parsing gives.
func TestFirstQueryDuringWarmupParsesEveryFile(t *testing.T) {
	var b strings.Builder
	for i := range 6 {
		fmt.Fprintf(&b, "-- e%d.go --\npackage p\n\nfunc E%d() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n", i, i)
		fmt.Fprintf(&b, "-- n%d.go --\npackage p\n\nfunc N%d() int {\n\treturn %d\n}\n", i, i, i) // no err: skipped by errIf
	}
	dir := testutil.WriteTree(t, b.String())
	ed, srv := startWarmupHeld(t, dir, client.EditorOptions{})
	off, _ := startServer(t, dir, client.EditorOptions{InitOptions: json.RawMessage(`{"structls": {"backgroundParse": false}}`)})
	errIf := map[string]any{"pattern": "if err != nil { $$$ }", "lang": "go", "limit": 0}
	for i, q := range []map[string]any{errIf, returnAny} {
		before := srv.parseCache.Parses()
		got := astGrepTexts(t, ed, q)
		if want := astGrepTexts(t, off, q); len(got) < 6 || !slices.Equal(got, want) {
			t.Errorf("query %d (%s) during warm-up: %q;\nwithout background parsing %q", i+1, q["pattern"], got, want)
		}
		switch parsed := srv.parseCache.Parses() - before; {
		case i == 0 && parsed != 12:
			t.Errorf("the first query parsed %d files; want all 12, the 6 without err too", parsed)
		case i == 1 && parsed != 0:
			t.Errorf("the second query parsed %d files; want 0 (the first query's trees)", parsed)
		}
	}
	if st := srv.parseCache.Stats(); st.Trees != 12 {
		t.Errorf("the cache holds %d trees; want 12", st.Trees)
	}
}

// TestWarmDuringWarmupStaysInBudget: during warm-up, queries cache trees
// only up to parseCacheMB and push out none; the files left over are parsed
// as far as the pattern needs, each time, and every answer is the one a
// server without background parsing gives.
func TestWarmDuringWarmupStaysInBudget(t *testing.T) {
	var b strings.Builder
	for i := range 24 {
		fmt.Fprintf(&b, "-- f%02d.go --\npackage p\n\n", i)
		for j := range 100 { // some 90 KB of trees each: eleven fit in 1 MiB
			fmt.Fprintf(&b, "func F%d_%d() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n", i, j)
		}
	}
	dir := testutil.WriteTree(t, b.String())
	ed, srv := startWarmupHeld(t, dir, client.EditorOptions{Settings: json.RawMessage(`{"parseCacheMB": 1}`)})
	off, _ := startServer(t, dir, client.EditorOptions{InitOptions: json.RawMessage(`{"structls": {"backgroundParse": false}}`)})
	want := astGrepTexts(t, off, anyIf)
	var cached int
	for pass := range 2 {
		before := srv.parseCache.Parses()
		if got := astGrepTexts(t, ed, anyIf); !slices.Equal(got, want) {
			t.Errorf("pass %d during warm-up: %d matches, not the %d of a server without background parsing", pass+1, len(got), len(want))
		}
		st := srv.parseCache.Stats()
		if st.Bytes > 1<<20 {
			t.Errorf("pass %d: the cache holds %d bytes; parseCacheMB is 1 (%d)", pass+1, st.Bytes, 1<<20)
		}
		if pass == 0 {
			cached = st.Trees
			if cached == 0 || cached == 24 {
				t.Fatalf("the first query cached %d of the 24 trees; want some, as many as fit in 1 MiB", cached)
			}
		}
		if parsed := srv.parseCache.Parses() - before; pass == 1 && (st.Trees != cached || parsed != int64(24-cached)) {
			t.Errorf("pass 2: %d trees cached, %d files parsed; want the first pass's %d kept and the other %d parsed", st.Trees, parsed, cached, 24-cached)
		}
	}
}

// TestWarmDuringWarmupNeverStale: a file changed between two queries
// during warm-up — on disk, with or without a watched-file event, or in the
// editor's buffer — gives the new result, whatever trees the first query
// cached.
func TestWarmDuringWarmupNeverStale(t *testing.T) {
	dir := goProject(t, 2)
	ed, srv := startWarmupHeld(t, dir, client.EditorOptions{DynamicWatch: true})
	srv.warmer.files.Now = func() time.Time { return time.Now().Add(time.Hour) } // every stamp trusted
	ctx := context.Background()
	path := filepath.Join(dir, "p0", "f.go")
	query := map[string]any{"pattern": "return $X", "lang": "go", "limit": 0, "paths": []string{"p0"}}
	check := func(step, want string) {
		t.Helper()
		if got := astGrepTexts(t, ed, query); !slices.Equal(got, []string{"p0/f.go:return " + want}) {
			t.Errorf("%s: matches %q; want only return %s", step, got, want)
		}
	}
	writeReturn(t, path, "first")
	check("first query", "first")
	parses := srv.parseCache.Parses()
	check("the same query again", "first")
	if n := srv.parseCache.Parses() - parses; n != 0 {
		t.Errorf("the second query parsed %d files; want 0", n)
	}

	writeReturn(t, path, "second.onDisk")
	check("changed on disk, no event", "second.onDisk")

	writeReturn(t, path, "third.onDisk")
	if err := ed.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
		{"uri": workspace.PathToURI(path), "type": 2}}}); err != nil {
		t.Fatal(err)
	}
	check("changed on disk, watched-file event", "third.onDisk")

	if _, err := ed.OpenFile(ctx, path, "go", returnText("inBuffer")); err != nil {
		t.Fatal(err)
	}
	check("opened with other text", "inBuffer")
}

// TestBackgroundParsePausedWhileARequestRuns: the server holds the gate
// busy for the whole of a request.
func TestBackgroundParsePausedWhileARequestRuns(t *testing.T) {
	dir := bigTree(t, 40, 20000) // seconds of regex work
	ed, srv := startServer(t, dir, client.EditorOptions{WorkDoneProgress: true})
	waitRuns(t, srv, 1)
	searched := make(chan error, 1)
	go func() {
		_, err := searchResult(t, ed, slowQuery)
		searched <- err
	}()
	var begin client.ProgressEvent
	for deadline := time.Now().Add(30 * time.Second); begin.Kind == ""; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the slow search never showed progress")
		}
		for _, ev := range ed.Progress() {
			if ev.Kind == "begin" {
				begin = ev
			}
		}
	}
	blocked, stop := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer stop()
	if _, release, err := srv.warmer.gate.Wait(blocked, true); err == nil {
		release()
		t.Fatal("background parsing could go on while a request was running")
	}
	// Cancel the search, and check that the gate opens once it has ended.
	if err := ed.Notify(context.Background(), "window/workDoneProgress/cancel", map[string]any{"token": json.RawMessage(begin.Token)}); err != nil {
		t.Fatal(err)
	}
	<-searched
	open, stopOpen := context.WithTimeout(context.Background(), 30*time.Second)
	defer stopOpen()
	_, release, err := srv.warmer.gate.Wait(open, true)
	if err != nil {
		t.Fatal("background parsing was still held back after the request ended")
	}
	release()
}

// TestBackgroundParseCancelled: the "Indexing N files" progress is
// cancellable, and cancelling it stops the run.
func TestBackgroundParseCancelled(t *testing.T) {
	dir := goProject(t, 5)
	servers := make(chan *Server, 1)
	var requestDone func()
	testHookServe = func(s *Server) {
		s.warmer.testHookFirstFile = func() { requestDone = s.warmer.gate.Busy() } // holds the run after its first file
		servers <- s
	}
	ed := newEditor(t, dir, client.EditorOptions{WorkDoneProgress: true})
	testHookServe = nil
	srv := <-servers
	var begin client.ProgressEvent
	for deadline := time.Now().Add(30 * time.Second); begin.Kind == ""; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("background parsing showed no progress")
		}
		for _, ev := range ed.Progress() {
			if ev.Kind == "begin" {
				begin = ev
			}
		}
	}
	if begin.Title != "Indexing 5 files" || !begin.Cancellable {
		t.Fatalf("progress begin %+v; want a cancellable \"Indexing 5 files\"", begin)
	}
	if err := ed.Notify(context.Background(), "window/workDoneProgress/cancel", map[string]any{"token": json.RawMessage(begin.Token)}); err != nil {
		t.Fatal(err)
	}
	waitRuns(t, srv, 1)
	requestDone()
	if n := srv.parseCache.Parses(); n != 1 {
		t.Errorf("%d files parsed by a run cancelled after its first; want 1", n)
	}
	events := ed.Progress()
	if last := events[len(events)-1]; last.Kind != "end" || !strings.Contains(last.Message, "cancelled") {
		t.Errorf("last progress %+v; want an end saying cancelled", last)
	}
}

// TestNoStaleTreeAfterAChange: whatever way a file changes — on disk with
// no event, on disk with a watched-file event, in the editor's buffer, or
// saved — the next query sees the new text, never a tree of the old.
func TestNoStaleTreeAfterAChange(t *testing.T) {
	dir := goProject(t, 2)
	ed, srv := startServer(t, dir, client.EditorOptions{DynamicWatch: true})
	waitRuns(t, srv, 1)
	ctx := context.Background()
	path := filepath.Join(dir, "p0", "f.go")
	query := map[string]any{"pattern": "return $X", "lang": "go", "limit": 0, "paths": []string{"p0"}}
	write := func(ret string) string {
		text := fmt.Sprintf("package p0\n\nfunc F() error {\n\treturn %s\n}\n", ret)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return text
	}
	check := func(step, want string) {
		t.Helper()
		if got := astGrepTexts(t, ed, query); !slices.Equal(got, []string{"p0/f.go:return " + want}) {
			t.Errorf("%s: matches %q; want only return %s", step, got, want)
		}
	}
	write("diskNoEvent")
	check("changed on disk, no event", "diskNoEvent")

	write("diskWithEvent")
	runs := srv.warmer.finishedRuns()
	if err := ed.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
		{"uri": workspace.PathToURI(path), "type": 2}}}); err != nil {
		t.Fatal(err)
	}
	waitRuns(t, srv, runs+1)
	parses := srv.parseCache.Parses()
	check("changed on disk, watched-file event", "diskWithEvent")
	if n := srv.parseCache.Parses() - parses; n != 0 {
		t.Errorf("after the watched-file event was handled, the query parsed %d files; want 0 (re-parsed in the background)", n)
	}

	uri, err := ed.OpenFile(ctx, path, "go", "package p0\n\nfunc F() error {\n\treturn inBuffer\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	check("opened with other text", "inBuffer")
	line3 := workspace.Range{Start: workspace.Position{Line: 3, Character: 8}, End: workspace.Position{Line: 3, Character: 16}}
	if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &line3, Text: "typed"}); err != nil {
		t.Fatal(err)
	}
	check("typed in the buffer", "typed")

	saved := write("typed")
	_ = saved
	runs = srv.warmer.finishedRuns()
	if err := ed.Notify(ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}}); err != nil {
		t.Fatal(err)
	}
	waitRuns(t, srv, runs+1)
	if err := ed.CloseFile(ctx, uri); err != nil {
		t.Fatal(err)
	}
	check("saved and closed", "typed")
}

// TestDidChangeReparsesIncrementally: after a keystroke, the next query
// reparses the open document from its previous tree; closing it frees that
// tree.
func TestDidChangeReparsesIncrementally(t *testing.T) {
	dir := goProject(t, 1)
	ed, srv := startServer(t, dir, client.EditorOptions{})
	waitRuns(t, srv, 1)
	ctx := context.Background()
	var b strings.Builder
	b.WriteString("package p0\n\n")
	for i := range 500 {
		fmt.Fprintf(&b, "func F%d() int {\n\treturn %d\n}\n\n", i, i)
	}
	uri, err := ed.OpenFile(ctx, filepath.Join(dir, "p0", "f.go"), "go", b.String())
	if err != nil {
		t.Fatal(err)
	}
	query := map[string]any{"pattern": "return 7", "lang": "go", "limit": 0}
	if got := astGrepTexts(t, ed, query); len(got) != 1 {
		t.Fatalf("matches %q; want one", got)
	}
	before := syntax.IncrementalReparses()
	at := workspace.Range{Start: workspace.Position{Line: 3, Character: 8}, End: workspace.Position{Line: 3, Character: 9}}
	if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &at, Text: "7"}); err != nil { // return 0 → return 7
		t.Fatal(err)
	}
	if got := astGrepTexts(t, ed, query); len(got) != 2 {
		t.Fatalf("after the keystroke, matches %q; want two", got)
	}
	if syntax.IncrementalReparses() == before {
		t.Error("the changed document was parsed from nothing; want an incremental reparse")
	}
	if srv.parseCache.KeptTrees() != 1 {
		t.Errorf("%d kept trees while the document is open; want 1", srv.parseCache.KeptTrees())
	}
	if err := ed.CloseFile(ctx, uri); err != nil {
		t.Fatal(err)
	}
	astGrepTexts(t, ed, query) // the close has been handled once a later request is answered
	if srv.parseCache.KeptTrees() != 0 {
		t.Errorf("%d kept trees after the document closed; want 0", srv.parseCache.KeptTrees())
	}
}

// TestIsWarmupTitle: the background parse's progress is told apart from
// workspace/symbol's ("Indexing symbols").
func TestIsWarmupTitle(t *testing.T) {
	for title, want := range map[string]bool{
		"Indexing 1 file": true, "Indexing 7711 files": true, warmupTitle(3): true,
		"Indexing symbols": false, "Indexing 2 file": false, "Indexing 7711 files!": false, "Parsing 3 files": false,
	} {
		if got := IsWarmupTitle(title); got != want {
			t.Errorf("IsWarmupTitle(%q) = %v, want %v", title, got, want)
		}
	}
}
