package lang

import (
	"strings"
	"testing"
)

// TestLookupSuggests: an unknown language gets the nearest name, or none,
// and a pointer to `structls languages` instead of the whole catalogue.
func TestLookupSuggests(t *testing.T) {
	tests := []struct {
		input, want string // want "" = no suggestion
	}{
		{"goo", "go"},
		{"Golang ", ""}, // an alias: found, no error
		{"pyhton", "python"},
		{"type", "typescript"},
		{"rusty", "rust"},
		{"javscript", "javascript"},
		{"klingon", ""},
		{"x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			_, err := Lookup(tt.input)
			if tt.input == "Golang " {
				if err != nil {
					t.Fatalf("Lookup(%q): %v; want the go entry", tt.input, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Lookup(%q) found a language; want an error", tt.input)
			}
			msg := err.Error()
			if !strings.Contains(msg, "structls languages") {
				t.Errorf("error %q does not point to `structls languages`", msg)
			}
			if strings.Contains(msg, "zig") {
				t.Errorf("error %q lists the catalogue", msg)
			}
			hasHint := strings.Contains(msg, "did you mean")
			switch {
			case tt.want == "" && hasHint:
				t.Errorf("error %q suggests something for a far-off name", msg)
			case tt.want != "" && !strings.Contains(msg, "did you mean "+tt.want+"?"):
				t.Errorf("error %q; want it to suggest %s", msg, tt.want)
			}
		})
	}
}
