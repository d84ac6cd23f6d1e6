package rewrite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// ops builds a list of ops from pattern, rewrite pairs.
func ops(pairs ...string) []Op {
	var out []Op
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Op{Pattern: pairs[i], Rewrite: new(pairs[i+1])})
	}
	return out
}

// snapshotOf is a snapshot of the single workspace folder dir, with the
// open documents docs.
func snapshotOf(t *testing.T, dir string, docs map[string]*workspace.Document) *workspace.Snapshot {
	t.Helper()
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, docs)
}

// preview runs Preview on a workspace made from a txtar archive.
func preview(t *testing.T, archive string, q Query) (*Plan, string) {
	t.Helper()
	dir := testutil.WriteTree(t, archive)
	plan, err := Preview(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir, nil), Encoding: workspace.UTF16}, q)
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	return plan, dir
}

func TestQueryErrors(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage p\n")
	cases := []struct {
		name string
		q    Query
		want string // a part of the message
	}{
		{"no ops", Query{}, "ops must hold at least one operation"},
		{"too many ops", Query{Ops: make([]Op, MaxOps+1)}, "ops holds 101 operations; an edit takes at most 100"},
		{"empty pattern", Query{Ops: ops("f($A)", "g($A)", "  ", "x")}, "ops[1].pattern must not be empty"},
		{"duplicate pattern", Query{Ops: ops("f($A)", "g($A)", "h()", "", " f($A)", "k")}, `ops[2].pattern repeats ops[0].pattern`},
		{"missing rewrite", Query{Ops: []Op{{Pattern: "f($A)"}}}, `ops[0].rewrite is missing`},
		{"bad strictness", Query{Ops: ops("f()", ""), Strictness: "loose"}, "unknown strictness"},
		{"bad lang", Query{Ops: ops("f()", ""), Lang: "klingon"}, "klingon"},
		{"negative maxFiles", Query{Ops: ops("f()", ""), MaxFiles: -1}, "maxFiles must be a positive number"},
		{"bad format", Query{Ops: ops("f()", ""), Format: "xml"}, "format"},
		{"pattern not parsing in lang", Query{Ops: ops("f()", "", "$$$A", ""), Lang: "go"}, "ops[1].pattern"},
		{"pattern compiling nowhere", Query{Ops: ops("f()", "", "$$$A", "")}, "ops[1].pattern does not compile in any language searched"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Preview(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir, nil), Encoding: workspace.UTF16}, c.q)
			var input *workspace.InputError
			if !errors.As(err, &input) {
				t.Fatalf("got %v (%T), want an InputError", err, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %q, want it to contain %q", err, c.want)
			}
		})
	}
}

// TestNestedOuterWins: within one op, of nested matches the outer one is
// replaced and the inner ones are counted as skipped.
func TestNestedOuterWins(t *testing.T) {
	plan, _ := preview(t, "-- a.go --\npackage p\n\nvar v = f(f(f(1))) + f(2)\n", Query{Ops: ops("f($A)", "F($A)")})
	res := plan.Result()
	var afters []string
	for _, r := range res.Files[0].Replacements {
		afters = append(afters, r.After)
	}
	if diff := cmp.Diff([]string{"F(f(f(1)))", "F(2)"}, afters); diff != "" {
		t.Errorf("replacements (-want +got):\n%s", diff)
	}
	if res.Skipped != 2 || res.TotalReplacements != 2 {
		t.Errorf("skipped %d, total %d; want 2, 2", res.Skipped, res.TotalReplacements)
	}
}

// TestOpsInOrder: several ops edit one file; their replacements are merged
// in position order.
func TestOpsInOrder(t *testing.T) {
	plan, _ := preview(t, "-- a.go --\npackage p\n\nvar v = g(1) + f(2) + g(3)\n", Query{Ops: ops("f($A)", "F($A)", "g($A)", "G($A)")})
	if got, want := string(plan.files[0].Content), "package p\n\nvar v = G(1) + F(2) + G(3)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestOverlappingOpsRefused: replacements of two ops that overlap refuse the
// preview, naming both ops and positions.
func TestOverlappingOpsRefused(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage p\n\nvar v = g(f(1))\n")
	_, err := Preview(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir, nil), Encoding: workspace.UTF16}, Query{Ops: ops("f($A)", "F($A)", "g($A)", "G($A)")})
	var input *workspace.InputError
	if !errors.As(err, &input) {
		t.Fatalf("got %v, want an InputError", err)
	}
	for _, want := range []string{`ops[1] ("g($A)") at a.go:3:9`, `ops[0] ("f($A)") at a.go:3:11`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %s", err, want)
		}
	}
}

// TestParseErrorsSkipFile: a file whose tree has errors is never rewritten
// and is listed in parseErrors; the other files are rewritten.
func TestParseErrorsSkipFile(t *testing.T) {
	plan, _ := preview(t, "-- bad.go --\npackage p\n\nvar x = f(5) +\n-- good.go --\npackage p\n\nvar x = f(5)\n",
		Query{Ops: ops("f($A)", "F($A)")})
	res := plan.Result()
	if len(res.Files) != 1 || res.Files[0].Path != "good.go" {
		t.Fatalf("files %+v, want good.go only", res.Files)
	}
	if len(res.ParseErrors) != 1 || res.ParseErrors[0].Path != "bad.go" || !strings.Contains(res.ParseErrors[0].Message, "syntax errors") {
		t.Errorf("parseErrors %+v, want bad.go's syntax errors", res.ParseErrors)
	}
}

// TestInvalidUTF8SkipsFile: a file that is not valid UTF-8 is not rewritten
// (ast-grep skips it too): JSON, hence an LSP edit, cannot carry its bytes,
// so an editor would write U+FFFD in their place. Where the bad byte is
// does not matter: inside the match, or elsewhere in the file.
func TestInvalidUTF8SkipsFile(t *testing.T) {
	plan, _ := preview(t, "-- inside.go --\npackage p\n\nvar x = f(\"\xff\xfe\")\n"+
		"-- elsewhere.go --\npackage p\n\n// caf\xe9\nvar x = f(5)\n"+
		"-- good.go --\npackage p\n\nvar x = f(\"é\")\n",
		Query{Ops: ops("f($A)", "F($A)")})
	res := plan.Result()
	if len(res.Files) != 1 || res.Files[0].Path != "good.go" {
		t.Fatalf("files %+v, want good.go only", res.Files)
	}
	want := map[string]string{"elsewhere.go": "line 3, column 7", "inside.go": "line 3, column 12"}
	for _, issue := range res.ParseErrors {
		if at, ok := want[issue.Path]; ok && strings.Contains(issue.Message, "not valid UTF-8") && strings.Contains(issue.Message, at) {
			delete(want, issue.Path)
		}
	}
	if len(want) > 0 {
		t.Errorf("parseErrors %+v; want the invalid UTF-8 of %v, with its position", res.ParseErrors, want)
	}
}

// TestMaxFiles: only the first maxFiles files, in path order, are kept,
// whatever order the parallel scan meets them in.
func TestMaxFiles(t *testing.T) {
	var archive strings.Builder
	for i := range 40 {
		fmt.Fprintf(&archive, "-- d%d/f%02d.go --\npackage p\nvar v = f(%d)\n", i%3, i, i)
	}
	plan, _ := preview(t, archive.String(), Query{Ops: ops("f($A)", "F($A)"), MaxFiles: 7})
	res := plan.Result()
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	want := []string{"d0/f00.go", "d0/f03.go", "d0/f06.go", "d0/f09.go", "d0/f12.go", "d0/f15.go", "d0/f18.go"}
	if diff := cmp.Diff(want, paths); diff != "" || !res.LimitReached || res.FilesSearched != 40 || res.TotalReplacements != 7 {
		t.Errorf("files (-want +got):\n%s\nlimit %v, searched %d, replacements %d", diff, res.LimitReached, res.FilesSearched, res.TotalReplacements)
	}
	plan, _ = preview(t, archive.String(), Query{Ops: ops("f($A)", "F($A)")})
	if res := plan.Result(); res.FilesTouched != 40 || res.LimitReached {
		t.Errorf("default maxFiles: touched %d, limit %v", res.FilesTouched, res.LimitReached)
	}
}

// TestPreviewSeesOverlay: an open document is previewed from its unsaved
// text, and its version is in the preview.
func TestPreviewSeesOverlay(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage p\n\nvar v = 1\n")
	path := filepath.Join(dir, "a.go")
	doc := &workspace.Document{URI: workspace.PathToURI(path), Path: path, Version: 7, Content: []byte("package p\n\nvar v = f(\"é\") + f(2)\n")}
	snap := snapshotOf(t, dir, map[string]*workspace.Document{doc.URI: doc})
	plan, err := Preview(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Ops: ops("f($A)", "F($A)")})
	if err != nil {
		t.Fatal(err)
	}
	res := plan.Result()
	if len(res.Files) != 1 || res.Files[0].Version == nil || *res.Files[0].Version != 7 || res.Files[0].URI != doc.URI {
		t.Fatalf("files %+v, want a.go at version 7", res.Files)
	}
	second := res.Files[0].Replacements[1]
	want := Replacement{Range: workspace.Range{Start: workspace.Position{Line: 2, Character: 17}, End: workspace.Position{Line: 2, Character: 21}},
		ByteRange: workspace.ByteRange{Start: 29, End: 33}, Before: "f(2)", After: "F(2)"}
	if diff := cmp.Diff(want, second); diff != "" {
		t.Errorf("second replacement (-want +got):\n%s", diff)
	}
	if disk, _ := os.ReadFile(path); string(disk) != "package p\n\nvar v = 1\n" {
		t.Errorf("the preview wrote to disk: %q", disk)
	}
}

// TestByteOrderMarkRanges: editors drop a UTF-8 file's byte order mark
// from their buffers (VS Code, Neovim, Emacs; rust-analyzer strips it too),
// so the LSP positions of a file read from disk count from after it: an
// editor applying the edit to a closed file would otherwise replace text
// one character off on the first line. Byte ranges stay those of the file.
func TestByteOrderMarkRanges(t *testing.T) {
	plan, _ := preview(t, "-- a.js --\n\ufeffconsole.log(1); f(2)\nf(3)\n", Query{Ops: ops("console.log($A)", "print($A)", "f($A)", "g($A)")})
	got := plan.Result().Files[0].Replacements
	want := []struct {
		line, start, end int
		byteStart        int
	}{{0, 0, 14, 3}, {0, 16, 20, 19}, {1, 0, 4, 24}}
	if len(got) != len(want) {
		t.Fatalf("replacements %+v; want %d", got, len(want))
	}
	for i, w := range want {
		r := got[i].Range
		if r.Start.Line != w.line || r.Start.Character != w.start || r.End.Character != w.end || got[i].ByteRange.Start != w.byteStart {
			t.Errorf("replacement %d (%q): range %+v, byte %d; want line %d, characters %d-%d, byte %d",
				i, got[i].Before, r, got[i].ByteRange.Start, w.line, w.start, w.end, w.byteStart)
		}
	}
}

// TestResultJSON: list fields are arrays, never null; version is null for a
// file read from disk.
func TestResultJSON(t *testing.T) {
	plan, _ := preview(t, "-- a.go --\npackage p\n", Query{Ops: ops("f($A)", "")})
	out, _ := json.Marshal(plan.Result())
	for _, want := range []string{`"files":[]`, `"parseErrors":[]`, `"warnings":[]`, `"totalReplacements":0`, `"limitReached":false`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("%s lacks %s", out, want)
		}
	}
	plan, _ = preview(t, "-- a.go --\npackage p\nvar v = f(1)\n", Query{Ops: ops("f($A)", "")})
	out, _ = json.Marshal(plan.Result())
	for _, want := range []string{`"version":null`, `"replacements":[{"range":`, `"after":""`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("%s lacks %s", out, want)
		}
	}
}

// TestTextFormat: the text rendering has the seed's preview lines, the
// limit note, parse issues and a unified diff.
func TestTextFormat(t *testing.T) {
	plan, _ := preview(t, "-- a.go --\npackage p\n\nvar v = f(1)\n-- b.go --\npackage p\nvar v = f(2)\n-- c.go --\npackage p\nvar v = f(3) +\n",
		Query{Ops: ops("f($A)", "F($A)"), MaxFiles: 1, Format: "text"})
	text := plan.Result().Text
	for _, want := range []string{
		"1 replacement in 1 file;",
		"# a.go\n-3:9 f(1)\n+3:9 F(1)\n",
		"Limit reached: the edit changes more than 1 file and only the first 1 (in path order) are shown; raise maxFiles (--max-files)",
		"- c.go: not rewritten: the file has syntax errors",
		"--- a/a.go\n+++ b/a.go\n@@ -1,3 +1,3 @@\n package p\n \n-var v = f(1)\n+var v = F(1)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// TestNoOpReplacementsLeftOut: a rewrite giving back the matched text makes
// no replacement (and so no file to touch).
func TestNoOpReplacementsLeftOut(t *testing.T) {
	plan, _ := preview(t, "-- a.go --\npackage p\n\nvar v = f(1) + f(2)\n", Query{Ops: ops("f($A)", "f($A)", "g()", "h()")})
	if res := plan.Result(); res.TotalReplacements != 0 || len(res.Files) != 0 {
		t.Errorf("got %d replacements in %v, want none", res.TotalReplacements, res.Files)
	}
}

// TestHostileRewriteBounded: a template that would make gigabytes of text is
// a clear error, found without making them (bounded time and memory).
func TestHostileRewriteBounded(t *testing.T) {
	call := "f(\"" + strings.Repeat("x", 1<<16) + "\")" // a 64 KiB capture
	cases := []struct {
		name, code, template string
		files                int
	}{
		{"one replacement", "var v = f(\"" + strings.Repeat("x", 1<<20) + "\")", strings.Repeat("$A", 1<<12), 1},
		{"the file's sum", "var v = " + strings.Repeat(call+" + ", 40) + "0", strings.Repeat("$A", 32), 1},
		// 20 files of 4 MiB each, 80 MiB in all: the preview's memory must
		// be bounded, not only each file's.
		{"the files' sum", "var v = " + call, strings.Repeat("$A", 64), 20},
	}
	for _, c := range cases {
		var tree strings.Builder
		for i := range c.files {
			fmt.Fprintf(&tree, "-- a%d.go --\npackage p\n\n%s\n", i, c.code)
		}
		dir := testutil.WriteTree(t, tree.String())
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Preview(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir, nil), Encoding: workspace.UTF16}, Query{Ops: ops("f($A)", c.template)})
		runtime.ReadMemStats(&after)
		var input *workspace.InputError
		if !errors.As(err, &input) || !strings.Contains(err.Error(), "more than 64 MiB of text") {
			t.Errorf("%s: got %v, want the size error", c.name, err)
		}
		if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 1<<30 {
			t.Errorf("%s: the preview allocated %d MiB before giving up", c.name, allocated>>20)
		}
	}
}

// TestTooLargeFileSkipped: a file over maxFileSize is not rewritten, and
// its parse issue says how to rewrite it.
func TestTooLargeFileSkipped(t *testing.T) {
	dir := testutil.WriteTree(t, "-- big.go --\npackage p\n\nvar x = f(5) + f(6) + f(7)\n-- small.go --\nf(5)\n")
	snap := snapshotOf(t, dir, nil)
	snap.Settings.MaxFileSize = 20
	plan, err := Preview(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Ops: ops("f($A)", "F($A)")})
	if err != nil {
		t.Fatal(err)
	}
	res := plan.Result()
	want := "skipped: big.go (38 bytes): file is larger than maxFileSize (raise the maxFileSize setting to rewrite it)"
	if len(res.ParseErrors) != 1 || res.ParseErrors[0].Path != "big.go" || res.ParseErrors[0].Message != want {
		t.Errorf("parseErrors %+v; want big.go's %q", res.ParseErrors, want)
	}
}
