package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"go", "", 2},
		{"", "rust", 4},
		{"limit", "limit", 0},
		{"lmit", "limit", 1},
		{"ignorecase", "ignoreCase", 1},
		{"kitten", "sitting", 3},
		{"typscript", "typescript", 1},
	} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d; want %d (symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}
