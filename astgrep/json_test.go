package astgrep

import (
	"bytes"
	"encoding/json"
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
