package lsp

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReadPartialBatch: a batch's matches come back exactly as sent (the
// CLI prints them as they are), counted, with the text; anything that is
// not a batch is an error, never a half-read batch.
func TestReadPartialBatch(t *testing.T) {
	for _, tc := range []struct {
		value, matches string
		count          int
		text, err      string
	}{
		{value: `{"matches":[{"a":1},{"b":[2,"]}"]}],"text":"x\n"}`, matches: `{"a":1},{"b":[2,"]}"]}`, count: 2, text: "x\n"},
		{value: `{"matches":[]}`, matches: ``, count: 0},
		{value: `{"matches":[],"text":"only text"}`, matches: ``, text: "only text"},
		{value: ` { "matches" : [ 1 , "\u00e9" ] } `, matches: `1 , "\u00e9"`, count: 2},
		{value: `{"other":{"x":[1]},"matches":[3],"more":null}`, matches: `3`, count: 1},
		{value: `{}`},
		{value: `[]`, err: "where an object was expected"},
		{value: `{"matches":{}}`, err: "not an array"},
		{value: `{"matches":[1],"text":3}`, err: "not a string"},
		{value: `{"matches":[1,]}`, err: "invalid character"},
		{value: `{"matches":[1]} {}`, err: "after the end"},
		{value: `{"matches":[1]`, err: "EOF"},
		{value: "{\"matches\":[\"\xff\"]}", err: "invalid UTF-8"},
		{value: `{"matches":[1],"matches":[2]}`, err: "two matches arrays"},
	} {
		b, err := ReadPartialBatch(json.RawMessage(tc.value))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v; want one saying %q", tc.value, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.value, err)
			continue
		}
		if string(b.Matches) != tc.matches || b.Count != tc.count || b.Text != tc.text {
			t.Errorf("%q: got matches %q (%d), text %q; want %q (%d), %q", tc.value, b.Matches, b.Count, b.Text, tc.matches, tc.count, tc.text)
		}
	}
}
