package grep

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/structls/structls/workspace"
)

// TestResultJSON checks the hand-written encoder against encoding/json's
// reflection on the same value.
func TestResultJSON(t *testing.T) {
	next := 20
	res := &Result{
		Matches: []Match{{Path: "a/<b>&c.go", URI: "file:///w/a", LineNumber: 3, LineText: "x\t\"q\"\\ \x01 \xff é 😀 \u2028",
			Truncated: true, Submatches: []Submatch{{Text: "q", ByteRange: workspace.ByteRange{Start: 4, End: 5},
				Range: workspace.Range{Start: workspace.Position{Line: 2, Character: 3}, End: workspace.Position{Line: 2, Character: 4}}}},
			ContextBefore: []ContextLine{{LineNumber: 2, Text: "before\r"}}, ContextAfter: []ContextLine{{LineNumber: 4, Text: "after"}}},
			{Path: "b", URI: "u", LineNumber: 1}},
		MatchCount: 2, FileCount: 2, TotalFiles: 30, FilesSearched: 99, FileLimitReached: true, PerFileLimitReached: true,
		LinesTruncated: true, NextSkip: &next, MissingPaths: []string{"m"}, Warnings: []string{"w1", "w2"}, Text: "# a\n*3|x\n",
	}
	type plain Result // the same fields, without the MarshalJSON method
	for _, r := range []*Result{res, {Matches: []Match{}}} {
		want, err := json.Marshal((*plain)(r))
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
