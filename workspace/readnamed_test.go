package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReadNamed reads the one file an entry names, and refuses, with the
// error a caller can tell apart, a folder, a missing file, a file outside
// the workspace, and a file too large to read.
func TestReadNamed(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.go", "package a\n")
	writeFile(t, dir, "big.txt", "0123456789")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "sub"), "only.go", "package sub\n")
	snap := folderSnapshot(t, dir)
	snap.Settings.MaxFileSize = 5
	ctx := context.Background()

	f, content, err := snap.ReadNamed(ctx, "a.go")
	if err == nil || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a.go over a limit of 5 bytes: err = %v; want ErrTooLarge", err)
	}
	var readErr *ReadError
	if !errors.As(err, &readErr) || readErr.File.Rel != "a.go" || f.Rel != "a.go" || content != nil {
		t.Errorf("a.go over the limit: file %q, error %#v; want a *ReadError naming a.go, and the file", f.Rel, err)
	}

	snap.Settings.MaxFileSize = 0
	f, content, err = snap.ReadNamed(ctx, PathToURI(filepath.Join(dir, "a.go")))
	if err != nil || f.Rel != "a.go" || string(content) != "package a\n" {
		t.Errorf("ReadNamed(a.go's URI) = %q, %q, %v; want a.go's text", f.Rel, content, err)
	}
	// sub holds one file: still a folder, refused without being walked.
	if _, _, err := snap.ReadNamed(ctx, "sub"); !errors.Is(err, ErrNotOneFile) {
		t.Errorf("ReadNamed(sub) = %v; want ErrNotOneFile", err)
	}
	if _, _, err := snap.ReadNamed(ctx, "sub/*.go"); !errors.Is(err, ErrNotOneFile) {
		t.Errorf("ReadNamed(sub/*.go) = %v; want ErrNotOneFile", err)
	}
	var pathErr *PathError
	for _, entry := range []string{"missing.go", "../outside.go"} {
		if _, _, err := snap.ReadNamed(ctx, entry); !errors.As(err, &pathErr) {
			t.Errorf("ReadNamed(%s) = %v; want a *PathError", entry, err)
		}
	}
}
