package workspace

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// allocatedBy returns the bytes allocated while f ran.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadFileSparseFileUnderRaisedLimit reads sparse files (all zeros, no
// disk space) under a maxFileSize raised above their size: ReadFile must find
// them binary after a bounded read, not allocate and read their whole size.
func TestReadFileSparseFileUnderRaisedLimit(t *testing.T) {
	for _, tc := range []struct {
		name        string
		size, limit int64
		want        error
	}{
		{"256 MB under a 1 GB limit", 256 << 20, 1 << 30, ErrBinary},
		{"20 GB under a 32 GB limit", 20 << 30, 32 << 30, ErrBinary},
		{"20 GB over the default limit", 20 << 30, 0, ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeFile(t, dir, "sparse.txt", "")
			if err := os.Truncate(path, tc.size); err != nil {
				t.Skip("no sparse files here:", err)
			}
			snap := folderSnapshot(t, dir)
			snap.Settings.MaxFileSize = tc.limit
			var err error
			allocated := allocatedBy(func() { _, err = snap.ReadFile(File{Abs: path, Rel: "sparse.txt"}, nil) })
			if !errors.Is(err, tc.want) {
				t.Errorf("ReadFile = %v; want %v", err, tc.want)
			}
			if allocated > 2*firstReadSize {
				t.Errorf("ReadFile allocated %d MB for a sparse file; want at most %d MB", allocated>>20, 2*firstReadSize>>20)
			}
		})
	}
}

// TestReadFileGrowingFile grows a file after its size was checked, once or
// before every read: ReadFile reads what is there up to the limit, and never
// reads or allocates far past it.
func TestReadFileGrowingFile(t *testing.T) {
	const limit = 1 << 20
	for _, tc := range []struct {
		name     string
		growTo   int  // bytes appended before the first read
		repeated bool // appended before every read
		want     error
	}{
		{"grows within the limit", limit - 10, false, nil},
		{"grows to the limit", limit - len("start\n"), false, nil},
		{"grows past the limit", limit - len("start\n") + 1, false, ErrTooLarge},
		{"grows far past the limit", 8 * limit, false, ErrTooLarge},
		{"keeps growing", 64 << 10, true, ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeFile(t, dir, "log.txt", "start\n")
			snap := folderSnapshot(t, dir)
			snap.Settings.MaxFileSize = limit
			grown := bytes.Repeat([]byte("a"), tc.growTo)
			reads := 0
			testHookBeforeRead = func() {
				if reads++; reads > 1 && !tc.repeated {
					return
				}
				f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
				if err == nil {
					_, err = f.Write(grown)
					f.Close()
				}
				if err != nil {
					t.Error(err)
				}
			}
			defer func() { testHookBeforeRead = nil }()
			var content []byte
			var err error
			allocated := allocatedBy(func() { content, err = snap.ReadFile(File{Abs: path, Rel: "log.txt"}, nil) })
			if wantLen := len("start\n") + tc.growTo; !errors.Is(err, tc.want) || (err == nil && len(content) != wantLen) {
				t.Errorf("ReadFile = %d bytes, %v; want %d bytes, error %v", len(content), err, wantLen, tc.want)
			}
			if allocated > 4*limit {
				t.Errorf("ReadFile allocated %d bytes under a limit of %d", allocated, limit)
			}
		})
	}
}

// TestReadFileOpenDocumentOverLimit checks that maxFileSize applies to
// unsaved buffers as it does to files on disk.
func TestReadFileOpenDocumentOverLimit(t *testing.T) {
	dir := t.TempDir()
	snap := folderSnapshot(t, dir)
	snap.Settings.MaxFileSize = 1000
	for _, tc := range []struct {
		size int
		want error
	}{{1000, nil}, {1001, ErrTooLarge}} {
		doc := &Document{URI: PathToURI(filepath.Join(dir, "a.txt")), Content: bytes.Repeat([]byte("x"), tc.size)}
		content, err := snap.ReadFile(File{Rel: "a.txt", Doc: doc}, nil)
		if !errors.Is(err, tc.want) || (err == nil && len(content) != tc.size) {
			t.Errorf("ReadFile of a %d-byte buffer = %d bytes, %v; want error %v", tc.size, len(content), err, tc.want)
		}
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReadFileOneReadForAStableFile: a file whose size does not change is
// read with one read, not a second one to see the end (a fifth of the system
// calls of a search); a file that shrank after its size was checked is read
// to its new end.
func TestReadFileOneReadForAStableFile(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "a.txt", "hello\nworld\n")
	snap := folderSnapshot(t, dir)
	reads := 0
	testHookBeforeRead = func() { reads++ }
	defer func() { testHookBeforeRead = nil }()
	content, err := snap.ReadFile(File{Abs: path, Rel: "a.txt"}, nil)
	if err != nil || string(content) != "hello\nworld\n" || reads != 1 {
		t.Errorf("ReadFile = %q, %v in %d reads; want the file in 1 read", content, err, reads)
	}

	reads = 0
	testHookBeforeRead = func() {
		if reads++; reads == 1 {
			if err := os.Truncate(path, 6); err != nil {
				t.Error(err)
			}
		}
	}
	content, err = snap.ReadFile(File{Abs: path, Rel: "a.txt"}, nil)
	if err != nil || string(content) != "hello\n" {
		t.Errorf("ReadFile of a file truncated after its stat = %q, %v; want %q", content, err, "hello\n")
	}
}
