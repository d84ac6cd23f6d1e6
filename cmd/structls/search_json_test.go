package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// TestSearchJSONExitCodes: with --json the result is printed as the server
// sent it, and only its count is decoded, for the exit code: 0 with a
// match, 1 without.
func TestSearchJSONExitCodes(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nneedle\nhay\nneedle again\n")
	for _, tc := range []struct {
		pattern   string
		wantCode  int
		wantCount int
	}{
		{"needle", exitFound, 2},
		{"no such text", exitNotFound, 0},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"search", "--root", dir, "--json", tc.pattern}, nil, &stdout, &stderr)
		var res struct {
			MatchCount int               `json:"matchCount"`
			Matches    []json.RawMessage `json:"matches"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
			t.Fatalf("%q: stdout is no JSON result: %v\n%s", tc.pattern, err, stdout.String())
		}
		if code != tc.wantCode || res.MatchCount != tc.wantCount || len(res.Matches) != tc.wantCount {
			t.Errorf("%q: exit %d, matchCount %d, %d matches; want exit %d and %d (stderr %q)",
				tc.pattern, code, res.MatchCount, len(res.Matches), tc.wantCode, tc.wantCount, stderr.String())
		}
	}
}
