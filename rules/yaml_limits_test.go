package rules

import (
	"strings"
	"testing"
)

// TestYAMLTextDepth: nesting is counted from brackets, indentation and
// leading dashes, not from dashes or # inside a line's text.
func TestYAMLTextDepth(t *testing.T) {
	tests := []struct {
		text string
		deep bool
	}{
		{"a: " + strings.Repeat("[", 1001), true},
		{"a: " + strings.Repeat("- ", 1001) + "x", false}, // a scalar holding dashes
		{strings.Repeat("- ", 1001) + "x", true},
		{"a: x # " + strings.Repeat("[", 1001), false},
		{"a: |\n  " + strings.Repeat("1 - ", 2000) + "1\n", false},
		{"a: " + strings.Repeat("[", 999) + strings.Repeat("]", 999), false},
	}
	for i, tt := range tests {
		err := checkYAMLText("t.yml", []byte(tt.text))
		if deep := err != nil && strings.Contains(err.Error(), "levels deep"); deep != tt.deep {
			t.Errorf("case %d: got %v; want too deep: %v", i, err, tt.deep)
		}
	}
}
