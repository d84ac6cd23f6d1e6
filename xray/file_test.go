package xray

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/workspace"
)

// TestMatchLines: each match gets its line's content and range, also when
// several matches share a line (computed once for them), when a match
// names its own line_content, and on lines with CRLF endings, invalid
// UTF-8 or characters outside the BMP; a line outside the file gets
// neither.
func TestMatchLines(t *testing.T) {
	for _, source := range []string{
		"package p\r\n\r\nfunc f() { g(h(1)) } // \xff\nvar s = \"𝄞é\"\n",
		"\ufeffpackage p\n\nfunc f() { g(h(1)) }\nvar s = \"𝄞é\"", // a BOM; no end of line at the end
	} {
		testMatchLines(t, source)
	}
}

func testMatchLines(t *testing.T, source string) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := []int{3, 3, 3, 4, 4, 1, 3, 99, 0, -1, 3}
	evaluator := `lines = [3, 3, 3, 4, 4, 1, 3, 99, 0, -1, 3]
out = [{"line_number": n} for n in lines]
out[1]["line_content"] = "mine"
return {"matches": out}`
	for _, enc := range []workspace.Encoding{workspace.UTF16, workspace.UTF8, workspace.UTF32} {
		res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: enc}, Query{Driver: "package", Evaluator: evaluator})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) != len(lines) {
			t.Fatalf("%d matches; want %d (errors %+v)", len(res.Matches), len(lines), res.EvaluationErrors)
		}
		mapper := workspace.NewMapper([]byte(source))
		texts := strings.Split(source, "\n")
		for i, m := range res.Matches {
			var want Match
			want.Path, want.URI, want.Language, want.LineNumber, want.Fields = m.Path, m.URI, "go", lines[i], m.Fields
			if n := lines[i]; n >= 1 && n <= len(texts) {
				text := strings.TrimSuffix(texts[n-1], "\r")
				start := mapper.LineStart(n - 1)
				text = text[len(text)-(mapper.LineEnd(n-1)-start):] // the BOM is not in line 1
				rng, err := mapper.OffsetRange(start, start+len(text), enc)
				if err != nil {
					t.Fatal(err)
				}
				want.Range, want.LineContent = &rng, strings.ToValidUTF8(text, "\uFFFD")
			}
			if i == 1 {
				want.LineContent = "mine"
			}
			if diff := cmp.Diff(want, m); diff != "" {
				t.Errorf("%s, match %d (line %d): (-want +got)\n%s", enc, i, lines[i], diff)
			}
		}
	}
}

// TestValidText: text is kept as it is when it is valid UTF-8, and each
// invalid sequence becomes U+FFFD, as strings.ToValidUTF8 makes it.
func TestValidText(t *testing.T) {
	for _, in := range []string{"", "plain", "é𝄞", "a\xffb", "\xe2\x82", "ok\xc3", "\xff\xfe"} {
		if got, want := validText([]byte(in)), strings.ToValidUTF8(in, "\uFFFD"); got != want {
			t.Errorf("validText(%q) = %q; want %q", in, got, want)
		}
	}
}
