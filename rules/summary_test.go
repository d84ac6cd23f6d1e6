package rules

import "testing"

// TestSummary: the line ending a scan's text counts in English ("1 file",
// not "1 files").
func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		res  Result
		want string
	}{
		{Result{Diagnostics: make([]Diagnostic, 1), FilesScanned: 1}, "1 diagnostic (0 errors) in 1 file scanned"},
		{Result{Diagnostics: make([]Diagnostic, 3), ErrorCount: 1, FilesScanned: 2}, "3 diagnostics (1 error) in 2 files scanned"},
	} {
		if got := Summary(&tc.res); got != tc.want {
			t.Errorf("Summary = %q; want %q", got, tc.want)
		}
	}
}
