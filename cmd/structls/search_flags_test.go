package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// TestSearchNegativeContextFlags: a negative context count is an error
// (exit 2) that names the flag, never silently taken as "not given".
func TestSearchNegativeContextFlags(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nbefore\nneedle\nafter\n")
	for _, tc := range []struct {
		args     []string
		wantCode int
		wantErr  string
	}{
		{[]string{"-A", "-7"}, exitError, "-A -7"},
		{[]string{"-B", "-1"}, exitError, "-B -1"},
		{[]string{"-C", "-3"}, exitError, "-C -3"},
		{[]string{"-A", "0", "-B", "0"}, exitFound, ""},
		{[]string{"-C", "1"}, exitFound, ""},
		{[]string{"-g", "*.txt", "-A", "1", "-i"}, exitFound, ""},
		{[]string{"-g", "*.txt", "-A", "-2"}, exitError, "-A -2"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"search", "--root", dir}, tc.args...)
			code := run(append(args, "needle"), nil, &stdout, &stderr)
			if code != tc.wantCode {
				t.Fatalf("exit %d; want %d (stderr %q)", code, tc.wantCode, stderr.String())
			}
			if tc.wantErr != "" && !strings.Contains(stderr.String(), tc.wantErr) {
				t.Errorf("stderr %q; want it to name %q", stderr.String(), tc.wantErr)
			}
		})
	}
}
