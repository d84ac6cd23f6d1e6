package grep

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/structls/structls/workspace"
)

// TestResultJSON checks the hand-written encoder against encoding/json's
// reflection on the same value, with nil lists written as [].
func TestResultJSON(t *testing.T) {
	next := 20
	rng := workspace.Range{Start: workspace.Position{Line: 2, Character: 3}, End: workspace.Position{Line: 2, Character: 4}}
	res := &Result{
		Matches: []Match{{Path: "a/<b>&c.go", URI: "file:///w/a", Range: rng, LineNumber: 3, LineText: "x\t\"q\"\\ \x01 \xff é 😀 \u2028",
			Truncated: true, Submatches: []Submatch{{Text: "q", ByteRange: workspace.ByteRange{Start: 4, End: 5}, Range: rng}},
			ContextBefore: []ContextLine{{LineNumber: 2, Text: "before\r"}}, ContextAfter: []ContextLine{{LineNumber: 4, Text: "after"}}},
			{Path: "b", URI: "u", LineNumber: 1}},
		MatchCount: 2, FileCount: 2, TotalFiles: 30, FilesSearched: 99, FileLimitReached: true, PerFileLimitReached: true,
		LinesTruncated: true, NextSkip: &next, MissingPaths: []string{"m"}, Warnings: []string{"w1", "w2"}, Text: "# a\n*3|x\n",
	}
	type plain Result // the same fields, without the MarshalJSON method
	for _, r := range []*Result{res, {Matches: []Match{}}, {}} {
		want, err := json.Marshal((*plain)(withEmptyLists(*r)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("AppendJSON:\n%s\nencoding/json:\n%s", got, want)
		}
	}
}

// TestResultJSONListsNeverNull checks that every list field is present as an
// array even when the Go value holds nil lists.
func TestResultJSONListsNeverNull(t *testing.T) {
	r := &Result{Matches: []Match{{Path: "a", URI: "u", LineNumber: 1}}}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(got, []byte("null")) {
		t.Errorf("result JSON holds null: %s", got)
	}
	var decoded struct {
		Matches []struct {
			Submatches    json.RawMessage `json:"submatches"`
			ContextBefore json.RawMessage `json:"contextBefore"`
			ContextAfter  json.RawMessage `json:"contextAfter"`
		} `json:"matches"`
		MissingPaths json.RawMessage `json:"missingPaths"`
		Warnings     json.RawMessage `json:"warnings"`
	}
	if err := json.Unmarshal(got, &decoded); err != nil {
		t.Fatal(err)
	}
	m := decoded.Matches[0]
	for name, raw := range map[string]json.RawMessage{"submatches": m.Submatches, "contextBefore": m.ContextBefore,
		"contextAfter": m.ContextAfter, "missingPaths": decoded.MissingPaths, "warnings": decoded.Warnings} {
		if string(raw) != "[]" {
			t.Errorf("%s = %s; want []", name, raw)
		}
	}
}

// withEmptyLists returns r with every nil list replaced by an empty one: the
// value encoding/json must see to produce what AppendJSON writes.
func withEmptyLists(r Result) *Result {
	r.Matches = orEmpty(r.Matches)
	r.MissingPaths = orEmpty(r.MissingPaths)
	r.Warnings = orEmpty(r.Warnings)
	matches := make([]Match, len(r.Matches))
	for i, m := range r.Matches {
		m.Submatches = orEmpty(m.Submatches)
		m.ContextBefore = orEmpty(m.ContextBefore)
		m.ContextAfter = orEmpty(m.ContextAfter)
		matches[i] = m
	}
	r.Matches = matches
	return &r
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
