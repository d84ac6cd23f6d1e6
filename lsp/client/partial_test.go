package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestReadPartialBatch: a batch's matches (or an outline's files) come
// back exactly as sent (the CLI prints them as they are), counted, with
// the text; anything that is
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
		{value: `{"matches":[1],"matches":[2]}`, err: "two lists"},
		{value: `{"files":[{"path":"a"},{"path":"b"}],"text":"a\n"}`, matches: `{"path":"a"},{"path":"b"}`, count: 2, text: "a\n"},
		{value: `{"files":[1],"matches":[2]}`, err: "two lists"},
	} {
		b, err := readPartialBatch([]byte(tc.value))
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

// TestReceivePartial: a partial result reaches its request's receiver
// whatever the order of the notification's members, a batch as read (in
// place when the token comes first), a value as sent; a batch that does
// not decode is the request's error, and a notification for no request is
// left to plain progress.
func TestReceivePartial(t *testing.T) {
	const batch = `{"matches":[{"a":1}, {"b":2}],"text":"t"}`
	for _, tc := range []struct {
		params    string
		delivered bool   // handed to the receiver (else left to progress)
		want      string // what the receiver got, or its error
	}{
		{`{"token":"p","value":` + batch + `}`, true, `2 {"a":1}, {"b":2} t`},
		{`{"value":` + batch + `,"token":"p"}`, true, `2 {"a":1}, {"b":2} t`},
		{`{"token":"p","value":{"matches":{}}}`, true, "error: decoding a partial result of cmd: the batch's matches are a JSON object, not an array (the server sent a malformed batch: please report it)"},
		{`{"value":{"matches":7},"token":"p"}`, true, "error: decoding a partial result of cmd: the batch's matches are a JSON number, not an array (the server sent a malformed batch: please report it)"},
		{`{"token":"p","value":` + batch + `} x`, true, "error: decoding a partial result of cmd: jsontext: invalid character 'x' at start of value after offset 64 (the server sent a malformed batch: please report it)"},
		{`{"token":"p","value":` + batch + `} {}`, true, "error: decoding a partial result of cmd: data after the end of the JSON object (the server sent a malformed batch: please report it)"},
		{`{"token":"other","value":` + batch + `}`, false, ""},
		{`{"token":7,"value":` + batch + `}`, false, ""},
		{`{"token":"p"}`, false, ""},
		{`not json`, false, ""},
	} {
		var got string
		r := &partialReceiver{command: "cmd", onBatch: func(b PartialBatch) error {
			got = fmt.Sprintf("%d %s %s", b.Count, b.Matches, b.Text)
			return nil
		}}
		e := &Editor{partials: map[string]*partialReceiver{"p": r}}
		if delivered := e.receivePartial([]byte(tc.params)); delivered != tc.delivered {
			t.Errorf("%s: delivered %v; want %v", tc.params, delivered, tc.delivered)
		}
		if r.err != nil {
			got = "error: " + r.err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: got %q; want %q", tc.params, got, tc.want)
		}
	}
	for _, params := range []string{`{"token":"p","value":` + batch + `}`, `{"value":` + batch + `,"token":"p"}`} {
		var got string
		r := &partialReceiver{command: "cmd", onPartial: func(v json.RawMessage) error { got = string(v); return nil }}
		e := &Editor{partials: map[string]*partialReceiver{"p": r}}
		if !e.receivePartial([]byte(params)) || got != batch {
			t.Errorf("%s: the value handed on is %q; want %q", params, got, batch)
		}
	}
}
