package astgrep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
)

// TestResultJSON: Result.AppendJSON and Batch.AppendJSON write what
// encoding/json writes, value for value, on matches with single and list
// bindings, context lines, and text holding quotes, <, >, &, control
// characters, U+2028 and invalid UTF-8.
func TestResultJSON(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\n// before\nfunc g() {\n\tf(\"<&>\\\"\", x, '\t')\n\tf(\"\u2028\xff\")\n}\n// after\n")
	for _, q := range []Query{
		{Pattern: "f($$$ARGS)", Limit: intp(0), ContextLines: 1, Format: "text"},
		{Pattern: "f($A, $$$REST)", Limit: intp(1)},
		{Pattern: "nothing($A)"},
	} {
		res, err := search(t, dir, q)
		if err != nil {
			t.Fatal(err)
		}
		if q.Pattern == "f($$$ARGS)" && (len(res.Matches) != 2 || len(res.Matches[0].ContextBefore) != 1) {
			t.Fatalf("%d matches (%+v); want both calls, with context", len(res.Matches), res.Matches)
		}
		want, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		compareJSON(t, q.Pattern+" result", res.AppendJSON(nil), want)
		batch := &Batch{Matches: res.Matches, Text: res.Text}
		want, _ = json.Marshal(batch)
		compareJSON(t, q.Pattern+" batch", batch.AppendJSON(nil), want)
	}
}

func compareJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: AppendJSON wrote invalid JSON (%v): %s", what, err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s: AppendJSON differs from encoding/json (-want +got):\n%s", what, diff)
	}
}

// TestJSONEscapesHTML: strings are escaped as encoding/json escapes them,
// <, > and & included, as every engine's reply does.
func TestJSONEscapesHTML(t *testing.T) {
	b := Batch{Matches: []Match{{Path: "a<b>.go", URI: "file:///w/a.go", Language: "go", Text: "x && <y>"}}, Text: "a & b"}
	if got := b.AppendJSON(nil); bytes.ContainsAny(got, "<>&") {
		t.Errorf("AppendJSON = %s; want <, > and & escaped", got)
	}
}

// TestMatchesSizeCoversTheJSON: the size AppendJSON reserves for the
// matches holds their JSON however large the texts they carry (a loop's
// body, each binding of $$$), so the reply is written in one allocation,
// without reserving much more than it needs.
func TestMatchesSizeCoversTheJSON(t *testing.T) {
	body := strings.Repeat("\tx := f(a, b)\n", 700) // ~10 KB of code
	var matches []Match
	for i := range 50 {
		stmts := []Capture{{Text: body[:3000]}, {Text: body[3000:6000]}, {Text: body[6000:9000]}}
		matches = append(matches, Match{Path: fmt.Sprintf("pkg/file%d.go", i), URI: fmt.Sprintf("file:///w/pkg/file%d.go", i), Language: "go",
			Text: "for k, v := range m {\n" + body + "}", MetaVariables: map[string]any{"K": Capture{Text: "k"}, "V": Capture{Text: "v"}, "S": stmts},
			ContextBefore: []string{"// a line before"}, ContextAfter: []string{"// a line after"}})
	}
	got := len(appendMatches(nil, matches))
	if reserved := matchesSize(matches); reserved < got || reserved > got*3/2 {
		t.Errorf("matchesSize reserved %d bytes for %d bytes of JSON; want at least it, at most half more", reserved, got)
	}
}
