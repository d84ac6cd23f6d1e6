package xray

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/workspace"
)

// TestResultJSON keeps AppendJSON equal to encoding/json's output, value
// for value (encoding/json also escapes <, > and &), nil fields as {}.
func TestResultJSON(t *testing.T) {
	rng := workspace.Range{Start: workspace.Position{Line: 1, Character: 2}, End: workspace.Position{Line: 1, Character: 9}}
	r := &Result{
		Matches: []Match{
			{Path: "a/b.go", URI: "file:///w/a/b.go", Language: "go", LineNumber: 2, LineContent: "\tx := \"<é>\" \x01", Range: &rng,
				Fields: map[string]any{"z": int64(1), "a": []any{"x", nil, true, 1.5}, "n": map[string]any{"type": "call"}}},
			{Path: "c.py", URI: "file:///w/c.py", Language: "python", LineNumber: 99},
		},
		FileMetadata:     []FileMetadata{{Path: "c.py", URI: "file:///w/c.py", Value: map[string]any{"k": int64(3)}, FileRole: "test"}},
		EvaluationErrors: []EvaluationError{{Path: "d.txt", URI: "file:///w/d.txt", ErrorType: UnsupportedLanguage, ErrorMessage: "No grammar"}},
		Candidates:       3, FilesEvaluated: 3, Partial: true, MaxFilesReached: true, Cancelled: true,
		Warnings: []string{"w"}, Text: "# a/\n",
	}
	type plain Result // no MarshalJSON
	ref := plain(*r)
	ref.Matches = append([]Match(nil), r.Matches...)
	ref.Matches[1].Fields = map[string]any{}
	want, err := json.Marshal(ref)
	if err != nil {
		t.Fatal(err)
	}
	got := r.AppendJSON(nil)
	var gotValue, wantValue any
	if err := json.Unmarshal(got, &gotValue); err != nil {
		t.Fatalf("AppendJSON wrote invalid JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal(want, &wantValue); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantValue, gotValue); diff != "" {
		t.Errorf("AppendJSON (-encoding/json +AppendJSON):\n%s", diff)
	}
}

// TestBatchJSON keeps Batch.AppendJSON equal to encoding/json's output.
func TestBatchJSON(t *testing.T) {
	for _, b := range []Batch{
		{Matches: []Match{{Path: "a.go", URI: "file:///w/a.go", Language: "go", LineNumber: 1, LineContent: "<&>", Fields: map[string]any{"k": "v"}}}},
		{Matches: []Match{{Path: "b.py", URI: "file:///w/b.py", Language: "python", LineNumber: 2, Fields: map[string]any{}}}, Text: "# b.py\n2|\n"},
	} {
		type plain Batch // no MarshalJSON
		want, err := json.Marshal(plain(b))
		if err != nil {
			t.Fatal(err)
		}
		var gotValue, wantValue any
		if err := json.Unmarshal(b.AppendJSON(nil), &gotValue); err != nil {
			t.Fatalf("AppendJSON wrote invalid JSON: %v", err)
		}
		if err := json.Unmarshal(want, &wantValue); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantValue, gotValue); diff != "" {
			t.Errorf("AppendJSON (-encoding/json +AppendJSON):\n%s", diff)
		}
	}
}

// TestMatchesJSONQuotesOnce: the encoder quotes a run of matches' shared
// path, URI, language and line content once; the bytes are those of each
// match encoded on its own, whatever changes from one match to the next.
func TestMatchesJSONQuotesOnce(t *testing.T) {
	rng := &workspace.Range{End: workspace.Position{Character: 4}}
	m := Match{Path: "a.go", URI: "file:///w/a.go", Language: "go", LineNumber: 1, LineContent: "f(<é>)", Range: rng}
	with := func(change func(*Match)) Match { c := m; change(&c); return c }
	matches := []Match{
		m,
		m,
		with(func(c *Match) { c.LineNumber = 2 }),
		with(func(c *Match) { c.LineContent = "g()" }),
		with(func(c *Match) { c.LineContent = "" }),
		with(func(c *Match) { c.LineContent = "" }),
		with(func(c *Match) { c.Language = "gomod" }),
		with(func(c *Match) { c.URI = "file:///v/a.go" }),
		with(func(c *Match) { c.Path = "b.go" }),
		with(func(c *Match) { c.Path, c.URI, c.Fields = "", "", map[string]any{"k": 1} }),
		with(func(c *Match) { c.Path, c.URI, c.Language = "", "", "" }),
		m,
	}
	var want []byte
	for i := range matches {
		if i > 0 {
			want = append(want, ',')
		}
		var fresh matchEncoder // no match before: everything quoted
		want = fresh.append(want, &matches[i])
	}
	want = append(append([]byte(`{"matches":[`), want...), ']')
	if got := appendMatches(nil, matches); string(got) != string(want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestJSONEscapesHTML: strings are escaped as encoding/json escapes them,
// <, > and & included, as every engine's reply does.
func TestJSONEscapesHTML(t *testing.T) {
	b := Batch{Matches: []Match{{Path: "a<b>.go", URI: "file:///w/a.go", Language: "go", LineNumber: 1, LineContent: "x && <y>"}}, Text: "a & b"}
	if got := b.AppendJSON(nil); bytes.ContainsAny(got, "<>&") {
		t.Errorf("AppendJSON = %s; want <, > and & escaped", got)
	}
}
