package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

func TestCancelRequestStopsSearch(t *testing.T) {
	dir := bigTree(t, 60, 20000) // about 90 MB: seconds of regex work
	for _, id := range []string{`2`, `"search-2"`} {
		t.Run("id "+id, func(t *testing.T) {
			c := newRawClient(t)
			c.initialize(dir)
			c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"workspace/executeCommand","params":{"command":"structls.search","arguments":[{"pattern":"[a-z]{5} [0-9]{5}[A-Z]"}]}}`, id))
			c.awaitProgress("report") // the search is under way
			sent := time.Now()
			c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":%s}}`, id))
			m := c.reply(id)
			if m.Error == nil || m.Error.Code != int(RequestCancelled) {
				t.Fatalf("reply = %+v %s; want the RequestCancelled error", m.Error, m.Result)
			}
			t.Logf("cancelled reply %v after the cancel", time.Since(sent))
			// The server is still alive and answers.
			c.send(3, "shutdown", nil)
			if m := c.reply("3"); m.Error != nil {
				t.Fatalf("shutdown: %v", m.Error.Message)
			}
			c.send(nil, "exit", nil)
			if code := <-c.code; code != 0 {
				t.Errorf("exit code %d; want 0", code)
			}
		})
	}
}

func TestProgressCancelStopsSearch(t *testing.T) {
	dir := bigTree(t, 60, 20000)
	ed := newEditor(t, dir, client.EditorOptions{WorkDoneProgress: true})
	errc := make(chan error, 1)
	go func() {
		_, err := searchResult(t, ed, slowQuery)
		errc <- err
	}()
	var begin client.ProgressEvent
	for reported := false; !reported; time.Sleep(time.Millisecond) {
		for _, p := range ed.Progress() {
			switch p.Kind {
			case "begin":
				begin = p
			case "report":
				reported = true // the search is under way
			}
		}
	}
	if !begin.Cancellable || begin.Title == "" {
		t.Errorf("begin = %+v; want a cancellable progress with a title", begin)
	}
	sent := time.Now()
	if err := ed.Notify(context.Background(), "window/workDoneProgress/cancel", map[string]any{"token": json.RawMessage(begin.Token)}); err != nil {
		t.Fatal(err)
	}
	err := <-errc
	if client.ErrorCode(err) != int(RequestCancelled) {
		t.Fatalf("search error = %v; want RequestCancelled", err)
	}
	t.Logf("cancelled reply %v after the progress cancel", time.Since(sent))
	events := ed.Progress()
	if last := events[len(events)-1]; last.Kind != "end" || last.Message != "cancelled" {
		t.Errorf("last progress event = %+v; want end \"cancelled\"", last)
	}
}

func TestDidChangeDuringSearchAppliedInOrder(t *testing.T) {
	dir := bigTree(t, 20, 20000)
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	uri, err := ed.OpenFile(ctx, filepath.Join(dir, "edited.txt"), "plaintext", "")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := searchResult(t, ed, slowQuery); err != nil {
			t.Error(err)
		}
	})
	const edits = 300
	for i := range edits {
		at := workspace.Position{Line: i, Character: 0}
		if err := ed.EditBuffer(ctx, uri, client.Edit{Range: &workspace.Range{Start: at, End: at}, Text: fmt.Sprintf("edit-%d\n", i)}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := searchResult(t, ed, map[string]any{"pattern": `^edit-\d+$`, "paths": []string{"edited.txt"}, "perFileLimit": 0, "contextBefore": 0, "contextAfter": 0})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range edits {
		want = append(want, fmt.Sprintf("edited.txt:%d:edit-%d", i+1, i))
	}
	if diff := cmp.Diff(want, res.lines()); diff != "" {
		t.Errorf("server's buffer differs from the editor's (-want +got):\n%s", diff)
	}
	wg.Wait()
}

func TestPositionEncodingNegotiation(t *testing.T) {
	dir := testutil.WriteTree(t, "-- u.txt --\ncafé 😀 x\r\nnext é😀target\r\n")
	tests := []struct {
		offered []string
		want    workspace.Encoding
		column  int
	}{
		{nil, workspace.UTF16, 8},
		{[]string{"utf-16"}, workspace.UTF16, 8},
		{[]string{"utf-32", "utf-16"}, workspace.UTF32, 7},
		{[]string{"utf-16", "utf-8"}, workspace.UTF8, 11},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.offered), func(t *testing.T) {
			ed := newEditor(t, dir, client.EditorOptions{PositionEncodings: tt.offered})
			if ed.Encoding() != tt.want {
				t.Fatalf("negotiated %v; want %v", ed.Encoding(), tt.want)
			}
			res, err := searchResult(t, ed, map[string]any{"pattern": "target"})
			if err != nil {
				t.Fatal(err)
			}
			r := res.Matches[0].Submatches[0].Range
			if r.Start != (workspace.Position{Line: 1, Character: tt.column}) || r.End.Character != tt.column+6 {
				t.Errorf("range %+v; want line 1 character %d", r, tt.column)
			}
			// An edit addressed in the negotiated encoding lands where the editor meant it.
			uri, err := ed.OpenFile(context.Background(), filepath.Join(dir, "u.txt"), "plaintext", "next é😀target\r\n")
			if err != nil {
				t.Fatal(err)
			}
			at := workspace.Position{Line: 0, Character: tt.column}
			if err := ed.EditBuffer(context.Background(), uri, client.Edit{Range: &workspace.Range{Start: at, End: at}, Text: "my"}); err != nil {
				t.Fatal(err)
			}
			res, err = searchResult(t, ed, map[string]any{"pattern": "mytarget"})
			if err != nil || res.MatchCount != 1 || res.Matches[0].Submatches[0].Range.Start.Character != tt.column {
				t.Errorf("after the edit: %+v, %v", res, err)
			}
		})
	}
}

func TestUnsavedTextIsSearched(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a // on disk\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	uri, err := ed.OpenFile(ctx, filepath.Join(dir, "a.go"), "go", "package a // in the buffer\n")
	if err != nil {
		t.Fatal(err)
	}
	query := map[string]any{"pattern": "disk|buffer", "contextAfter": 0, "contextBefore": 0}
	res, err := searchResult(t, ed, query)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a.go:1:package a // in the buffer"}, res.lines()); diff != "" {
		t.Errorf("open: (-want +got):\n%s", diff)
	}
	if res.Matches[0].URI != uri {
		t.Errorf("uri %s; want %s", res.Matches[0].URI, uri)
	}
	if err := ed.CloseFile(ctx, uri); err != nil {
		t.Fatal(err)
	}
	res, err = searchResult(t, ed, query)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a.go:1:package a // on disk"}, res.lines()); diff != "" {
		t.Errorf("closed: (-want +got):\n%s", diff)
	}
}

func TestPathEscapesAreRefused(t *testing.T) {
	outside := testutil.WriteTree(t, "-- secret.txt --\nTOP SECRET\n")
	dir := testutil.WriteTree(t, "-- a.txt --\nnot secret\n")
	for name, target := range map[string]string{"link-dir": outside, "link-file": filepath.Join(outside, "secret.txt")} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	ed := newEditor(t, dir, client.EditorOptions{})
	rel, _ := filepath.Rel(dir, outside)
	for _, p := range []string{filepath.Join(outside, "secret.txt"), rel, "../" + filepath.Base(outside) + "/secret.txt",
		workspace.PathToURI(outside), "link-dir", "link-file", "link-dir/*.txt", "/"} {
		t.Run(p, func(t *testing.T) {
			_, err := searchResult(t, ed, map[string]any{"pattern": "SECRET", "paths": []string{p}})
			if client.ErrorCode(err) != -32602 || !strings.Contains(err.Error(), "outside the workspace") {
				t.Errorf("error = %v; want InvalidParams saying the path is outside the workspace", err)
			}
		})
	}
	res, err := searchResult(t, ed, map[string]any{"pattern": "SECRET"})
	if err != nil || res.MatchCount != 0 {
		t.Errorf("whole-workspace search: %v, %v; want nothing (symlinks are not followed)", res.lines(), err)
	}
}

func TestConfigurationAndWatchers(t *testing.T) {
	dir := testutil.WriteTree(t, "-- big.txt --\nneedle "+strings.Repeat("x", 100)+"\n-- skip/a.txt --\nneedle\n-- keep.txt --\nneedle\n")
	ed := newEditor(t, dir, client.EditorOptions{
		InitOptions:  json.RawMessage(`{"structls": {"maxFileSize": 50, "logLevel": "debug"}}`),
		Settings:     json.RawMessage(`{"exclude": ["skip/**"]}`),
		DynamicWatch: true,
	})
	res, err := searchResult(t, ed, map[string]any{"pattern": "needle"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"keep.txt:1:needle"}, res.lines()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "big.txt") || !strings.Contains(res.Warnings[0], "maxFileSize") {
		t.Errorf("warnings %q; want one naming big.txt and maxFileSize", res.Warnings)
	}
	// Registration follows the configuration pull, off the read loop: wait for it.
	for deadline := time.Now().Add(10 * time.Second); len(ed.Registrations()) == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if regs := ed.Registrations(); len(regs) != 1 || regs[0].Method != "workspace/didChangeWatchedFiles" {
		t.Errorf("registrations %q; want the file watcher", regs)
	}
	if err := ed.Notify(context.Background(), "workspace/didChangeWatchedFiles",
		map[string]any{"changes": []map[string]any{{"uri": workspace.PathToURI(filepath.Join(dir, "keep.txt")), "type": 2}}}); err != nil {
		t.Fatal(err)
	}
}

// TestSettingsKeyByKey checks that one bad key does not cost the others:
// unknown keys and invalid values are each reported once and left out,
// VS Code's "trace" is passed over silently, and the valid settings apply.
func TestSettingsKeyByKey(t *testing.T) {
	dir := testutil.WriteTree(t, "-- big.txt --\nneedle "+strings.Repeat("x", 100)+"\n-- skip/a.txt --\nneedle\n-- keep.txt --\nneedle\n")
	ed := newEditor(t, dir, client.EditorOptions{
		InitOptions: json.RawMessage(`{"structls": {"maxFileSiz": 1, "parseCacheMB": -5}}`),
		Settings: json.RawMessage(`{"trace": {"server": "verbose"}, "maxFileSize": 50, "exclude": ["skip/**"],
			"logLevel": "loud", "ignorecase": true}`),
	})
	res, err := searchResult(t, ed, map[string]any{"pattern": "needle"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"keep.txt:1:needle"}, res.lines()); diff != "" {
		t.Errorf("maxFileSize and exclude must apply despite the bad keys (-want +got):\n%s", diff)
	}
	want := []string{
		`structls: unknown setting "maxFileSiz" is ignored (did you mean maxFileSize?); known settings: maxFileSize, exclude, logLevel, parseCacheMB, confirmEdits, backgroundParse`,
		`structls: setting parseCacheMB: -5 is not valid, so it is ignored: use a number of MiB, 0 to turn the cache off`,
		`structls: unknown setting "ignorecase" is ignored; known settings: maxFileSize, exclude, logLevel, parseCacheMB, confirmEdits, backgroundParse`,
		`structls: setting logLevel: "loud" is not valid, so it is ignored: use debug, info, warn or error`,
	}
	// The notes are sent off the read loop: wait for them, then for any extra.
	for deadline := time.Now().Add(10 * time.Second); len(ed.Logs()) < len(want) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	// A second pull of the same settings repeats no note.
	if err := ed.Notify(context.Background(), "workspace/didChangeConfiguration", map[string]any{"settings": nil}); err != nil {
		t.Fatal(err)
	}
	if _, err := searchResult(t, ed, map[string]any{"pattern": "needle"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if diff := cmp.Diff(want, ed.Logs(), cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

func TestDecodeSettings(t *testing.T) {
	mb := 0
	tests := []struct {
		raw      string
		want     workspace.Settings
		problems []string
	}{
		{`null`, workspace.Settings{}, nil},
		{`{"maxFileSize": 10, "trace": "off"}`, workspace.Settings{MaxFileSize: 10}, nil},
		{`{"maxFileSize": 10, "path": "/usr/local/bin/structls"}`, workspace.Settings{MaxFileSize: 10}, nil},
		{`{"maxFileSize": null, "exclude": null}`, workspace.Settings{}, nil},
		{`{"parseCacheMB": 0, "logLevel": "debug"}`, workspace.Settings{ParseCacheMB: &mb, LogLevel: "debug"}, nil},
		{`{"MaxFileSize": 10, "exclude": ["a/**"]}`, workspace.Settings{Exclude: []string{"a/**"}},
			[]string{`unknown setting "MaxFileSize" is ignored (did you mean maxFileSize?); known settings: maxFileSize, exclude, logLevel, parseCacheMB, confirmEdits, backgroundParse`}},
		{`{"maxFileSize": "big", "exclude": ["["]}`, workspace.Settings{}, []string{
			`setting exclude: ["["] is not valid, so it is ignored: `,
			`setting maxFileSize: "big" is not valid, so it is ignored: use a number of bytes (0 for the default)`}},
		{`["maxFileSize"]`, workspace.Settings{}, []string{`settings "structls" must be a JSON object; they are ignored`}},
	}
	for _, tt := range tests {
		got, problems := decodeSettings(json.RawMessage(tt.raw))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: settings (-want +got):\n%s", tt.raw, diff)
		}
		if len(problems) != len(tt.problems) {
			t.Errorf("%s: problems %q; want %q", tt.raw, problems, tt.problems)
			continue
		}
		for i := range problems {
			if !strings.HasPrefix(problems[i], tt.problems[i]) {
				t.Errorf("%s: problem %q; want it to start with %q", tt.raw, problems[i], tt.problems[i])
			}
		}
	}
}

func TestWorkspaceFolderChanges(t *testing.T) {
	first := testutil.WriteTree(t, "-- a.txt --\nneedle one\n")
	second := testutil.WriteTree(t, "-- b.txt --\nneedle two\n")
	ed := newEditor(t, first, client.EditorOptions{})
	ctx := context.Background()
	folder := func(dir string) []map[string]string {
		return []map[string]string{{"uri": workspace.PathToURI(dir), "name": filepath.Base(dir)}}
	}
	if err := ed.Notify(ctx, "workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{"added": folder(second), "removed": []any{}}}); err != nil {
		t.Fatal(err)
	}
	res, err := searchResult(t, ed, map[string]any{"pattern": "needle", "contextAfter": 0, "contextBefore": 0})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a.txt:1:needle one", "b.txt:1:needle two"}, res.lines()); diff != "" {
		t.Errorf("two folders (-want +got):\n%s", diff)
	}
	if err := ed.Notify(ctx, "workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{"added": []any{}, "removed": folder(first)}}); err != nil {
		t.Fatal(err)
	}
	res, err = searchResult(t, ed, map[string]any{"pattern": "needle"})
	if err != nil || len(res.Matches) != 1 || res.Matches[0].Path != "b.txt" {
		t.Errorf("after removing the first folder: %v, %v", res.lines(), err)
	}
}
