package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestStampSettled: a stamp is trusted only when both its mtime and its
// ctime are at least StampSlack old.
func TestStampSettled(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	old, fresh := now.Add(-StampSlack).UnixNano(), now.Add(-StampSlack+time.Nanosecond).UnixNano()
	for _, tc := range []struct {
		name         string
		mtime, ctime int64
		want         bool
	}{
		{"both old", old, old, true},
		{"mtime fresh", fresh, old, false},
		{"ctime fresh (an old mtime put back)", old, fresh, false},
		{"both fresh", fresh, fresh, false},
	} {
		if got := (FileStamp{ModNanos: tc.mtime, ChNanos: tc.ctime}).Settled(now); got != tc.want {
			t.Errorf("%s: Settled = %v; want %v", tc.name, got, tc.want)
		}
	}
}

// TestStat: Stat gives ReadFileStamp's stamp for a regular file, and the
// errors ReadFile gives for what it would not read.
func TestStat(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.go", "package a\n")
	writeFile(t, dir, "big.go", "package big // more than the limit\n")
	if err := os.Symlink(filepath.Join(dir, "a.go"), filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	snap := folderSnapshot(t, dir)
	snap.Settings.MaxFileSize = 20
	_, want, err := snap.ReadFileStamp(File{Rel: "a.go"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := snap.Stat(File{Rel: "a.go"}); err != nil || got != want {
		t.Errorf("Stat(a.go) = %+v, %v; want %+v (ReadFileStamp's)", got, err, want)
	}
	if _, err := snap.Stat(File{Rel: "big.go"}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Stat(big.go) = %v; want ErrTooLarge", err)
	}
	for _, rel := range []string{"link.go", "sub", "missing.go"} {
		if _, err := snap.Stat(File{Rel: rel}); err == nil {
			t.Errorf("Stat(%s) succeeded; want an error (it is no regular file)", rel)
		}
	}
}
