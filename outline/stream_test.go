package outline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/internal/workers"
	"github.com/structls/structls/workspace"
)

// streamTree is a workspace of a few files in several languages, one
// without items.
const streamTree = `
-- a.go --
package a

type T struct{ A, b int }

func (T) M() {}
func F() {}
-- b.py --
def build(): pass
class Builder:
    def run(self): pass
-- c.go --
package a

func internal() {}
-- d/e.ts --
export interface I { m(): void }
export function f(x: number): string { return "<&>" }
-- d/f.rs --
pub struct S { pub a: i32 }
fn g() {}
`

// streamed runs SearchStream and returns what it streamed joined with its
// final reply, as a client would put them together: the files of the
// batches then the reply's, the batches' texts then the reply's. Each
// batch goes through its JSON encoding.
func streamed(t *testing.T, dir string, q Query) *Result {
	t.Helper()
	var files []File
	var text strings.Builder
	res, err := SearchStream(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q, func(b Batch) error {
		var decoded Batch
		if err := json.Unmarshal(b.AppendJSON(nil), &decoded); err != nil {
			return fmt.Errorf("the batch's JSON does not decode: %w", err)
		}
		files = append(files, decoded.Files...)
		text.WriteString(decoded.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var decoded Result
	if err := json.Unmarshal(res.AppendJSON(nil), &decoded); err != nil {
		t.Fatalf("the reply's JSON does not decode: %v", err)
	}
	if len(decoded.Files) != 0 {
		t.Errorf("the final reply of a streamed outline holds %d files; want them all in the batches", len(decoded.Files))
	}
	decoded.Files = append(files, decoded.Files...)
	if decoded.Files == nil {
		decoded.Files = []File{}
	}
	text.WriteString(decoded.Text)
	decoded.Text = text.String()
	return &decoded
}

// TestSearchStreamIsSearch: the batches of SearchStream joined with its
// reply are the reply Search gives, in every format and page.
func TestSearchStreamIsSearch(t *testing.T) {
	dir := testutil.WriteTree(t, streamTree)
	one, two := 1, 2
	for name, q := range map[string]Query{
		"json":              {},
		"json items all":    {Items: ItemsAll},
		"text names":        {Format: "text"},
		"text digest":       {Format: "text", View: ViewDigest},
		"text only":         {Format: "text", TextOnly: true, View: ViewExpanded},
		"one file":          {Format: "text", Scope: workspace.Scope{Paths: []string{"c.go"}}},
		"limit":             {Limit: &two},
		"skip and limit":    {Skip: 1, Limit: &one, Format: "text"},
		"skip past the end": {Skip: 9, Format: "text"},
		"nothing selected":  {Match: "^nothing$", Format: "text"},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q)
			if err != nil {
				t.Fatal(err)
			}
			var wantDecoded Result // through JSON too: the same reply, as a client reads it
			if err := json.Unmarshal(want.AppendJSON(nil), &wantDecoded); err != nil {
				t.Fatal(err)
			}
			if got := streamed(t, dir, q); !reflect.DeepEqual(got, &wantDecoded) {
				t.Errorf("streamed:\n%+v\nwant:\n%+v", got, &wantDecoded)
			}
		})
	}
}

// TestResultJSON: the result's own encoder (AppendJSON) writes what
// encoding/json writes, once decoded: the same fields, nulls and strings
// (invalid UTF-8 included).
func TestResultJSON(t *testing.T) {
	res := &Result{
		Files: []File{{Path: "a<b>&c.go", URI: "file:///a", Language: "go", Items: []Item{
			{Name: "F\xff", SymbolType: "function", Signature: "func F() <-chan int", AstKind: "function_declaration", IsExported: true,
				Range:     workspace.Range{Start: workspace.Position{Line: 1, Character: 2}, End: workspace.Position{Line: 3, Character: 4}},
				ByteRange: workspace.ByteRange{Start: 5, End: 6}, Members: []Item{{Name: "m", Members: nil}}},
			{Name: "imp", IsImport: true, Members: []Item{}},
		}}, {Path: "b.go", Items: nil}},
		ItemCount: 2, FilesSearched: 3, LimitReached: true, NextSkip: intp(2), Warnings: []string{"w\"1"}, MissingPaths: []string{},
		Text: "a\n\tb",
	}
	for name, r := range map[string]*Result{"full": res, "empty": {Files: []File{}}} {
		var got, want any
		if err := json.Unmarshal(r.AppendJSON(nil), &got); err != nil {
			t.Fatalf("%s: AppendJSON wrote invalid JSON: %v", name, err)
		}
		encoded, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(encoded, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: AppendJSON decodes to\n%v\nwant\n%v", name, got, want)
		}
	}
	var got, want any
	b := Batch{Files: res.Files, Text: "t"}
	encoded, _ := json.Marshal(&b)
	if json.Unmarshal(b.AppendJSON(nil), &got) != nil || json.Unmarshal(encoded, &want) != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("the batch's AppendJSON decodes to\n%v\nwant\n%v", got, want)
	}
}

// manyFilesTree writes n Go files of items functions each.
func manyFilesTree(t *testing.T, n, items int) string {
	var b strings.Builder
	for f := range n {
		fmt.Fprintf(&b, "-- f%04d.go --\npackage a\n\n", f)
		for i := range items {
			fmt.Fprintf(&b, "func F%d_%d(x int) int { return x }\n", f, i)
		}
	}
	return testutil.WriteTree(t, b.String())
}

// TestTextCap: a text rendering stops at workspace.MaxTextBytes, after the
// last file that fits, and ends with the exact skip that continues it;
// the pages, followed to the end, show every file once.
func TestTextCap(t *testing.T) {
	dir := manyFilesTree(t, 60, 40) // about 2.3 KB a file in the signatures view
	var seen []string
	skip := 0
	for page := 0; ; page++ {
		if page > 10 {
			t.Fatal("the pages never end")
		}
		res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Format: "text", TextOnly: true, View: ViewSignatures, Skip: skip})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Text) > workspace.MaxTextBytes {
			t.Fatalf("page %d: %d bytes of text, over the %d cap", page, len(res.Text), workspace.MaxTextBytes)
		}
		for _, line := range strings.Split(res.Text, "\n") {
			if strings.HasPrefix(line, "f0") {
				seen = append(seen, line)
			}
		}
		if !res.LimitReached {
			break
		}
		want := fmt.Sprintf("for the rest repeat the query with skip=%d\n", skip+res.ItemCount/40)
		if !strings.HasSuffix(res.Text, want) || res.NextSkip == nil || *res.NextSkip != skip+res.ItemCount/40 {
			t.Fatalf("page %d (skip %d) ends %q, nextSkip %v; want it to end %q", page, skip, res.Text[max(0, len(res.Text)-120):], res.NextSkip, want)
		}
		skip = *res.NextSkip
	}
	if len(seen) != 60 || seen[0] != "f0000.go" || seen[59] != "f0059.go" || skip == 0 {
		t.Errorf("the pages showed %d files (%v … ), last skip %d; want the 60 files once each over several pages", len(seen), seen[:min(3, len(seen))], skip)
	}
}

// TestTextCapOneHugeFile: a file whose outline alone is over the cap is
// cut, so that every page moves on; the page continues at the next file
// only when there is one.
func TestTextCapOneHugeFile(t *testing.T) {
	dir := manyFilesTree(t, 2, 2000)
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Format: "text", TextOnly: true, View: ViewSignatures})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Text) > workspace.MaxTextBytes || !strings.Contains(res.Text, "… (cut: this file's outline alone is over 50 KB") ||
		!res.LimitReached || !nextSkipIs(res, 1) || !strings.HasSuffix(res.Text, "skip=1\n") {
		t.Fatalf("%d bytes, limitReached %v, nextSkip %v, ending %q", len(res.Text), res.LimitReached, res.NextSkip, res.Text[max(0, len(res.Text)-200):])
	}
	res, err = Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Format: "text", TextOnly: true, View: ViewSignatures, Skip: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Text, "f0001.go\n") || res.LimitReached || strings.Contains(res.Text, "skip=") {
		t.Errorf("the last page: limitReached %v, text %q … %q", res.LimitReached, res.Text[:min(40, len(res.Text))], res.Text[max(0, len(res.Text)-200):])
	}
}

// TestPageEndsTheOutline: once a page is full and the next file with
// items is known, the files after it are not outlined.
func TestPageEndsTheOutline(t *testing.T) {
	dir := manyFilesTree(t, 2000, 1)
	one := 1
	var done atomic.Int64
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16, Progress: func(d, _ int) { done.Add(1) }}, Query{Limit: &one})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || !res.LimitReached || !nextSkipIs(res, 1) || res.FilesSearched != 2000 {
		t.Fatalf("%d files, limitReached %v, nextSkip %v, filesSearched %d", len(res.Files), res.LimitReached, res.NextSkip, res.FilesSearched)
	}
	if n := done.Load(); n > 2+outlineWindow+int64(workers.Count()) {
		t.Errorf("%d of 2000 files outlined for a page of one; want the outline to stop within a window of the second", n)
	}
}

// TestSearchStreamBatches: streamed files go out together, in batches of
// about batchBytes, not one notification each.
func TestSearchStreamBatches(t *testing.T) {
	dir := manyFilesTree(t, 300, 20)
	batches, files, largest := 0, 0, 0
	_, err := SearchStream(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{}, func(b Batch) error {
		batches++
		files += len(b.Files)
		largest = max(largest, len(b.AppendJSON(nil)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != 300 || batches < 2 || batches > 300/4 || largest > 2*batchBytes {
		t.Errorf("%d files in %d batches, the largest %d bytes; want 300 in a few batches of about %d", files, batches, largest, batchBytes)
	}
}

// TestJSONEscapesHTML: strings are escaped as encoding/json escapes them,
// <, > and & included, as every engine's reply does.
func TestJSONEscapesHTML(t *testing.T) {
	b := Batch{Files: []File{{Path: "a<b>.ts", URI: "file:///w/a.ts", Language: "typescript", Items: []Item{{Name: "f<T>", Signature: "f<T>(a: A & B)"}}}}, Text: "a & b"}
	if got := b.AppendJSON(nil); bytes.ContainsAny(got, "<>&") {
		t.Errorf("AppendJSON = %s; want <, > and & escaped", got)
	}
}
