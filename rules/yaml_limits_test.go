package rules

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestReadYAMLFileRefusesSpecialFiles: a named pipe (no writer: opening it
// would block forever), a directory or a device given as a rule or
// configuration file is refused at once, saying what it is.
func TestReadYAMLFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "sgconfig.yml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, dir, "/dev/null"} {
		done := make(chan error, 1)
		go func() { _, err := ReadYAMLFile(path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v; want it refused as not a regular file", path, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still reading after 10 s", path)
		}
	}
}
