package workspace

import (
	"net"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestResolvePathsSkipsSpecialFiles: a named pipe or a socket named in
// `paths` is never opened (opening a FIFO blocks until a writer comes); it
// is skipped with a warning, and naming nothing else is an error that says why.
func TestResolvePathsSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.txt", "text\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip("cannot make a FIFO here:", err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Skip("cannot make a socket here:", err)
	}
	defer l.Close()
	snap := folderSnapshot(t, dir)

	r, err := snap.ResolvePaths([]string{"a.txt", "fifo", "sock", "gone.txt"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Targets) != 1 || filepath.Base(r.Targets[0].Base) != "a.txt" {
		t.Errorf("targets %+v; want a.txt only", r.Targets)
	}
	if len(r.Missing) != 1 || r.Missing[0] != "gone.txt" {
		t.Errorf("missing %q; want gone.txt", r.Missing)
	}
	if len(r.Warnings) != 2 || !strings.Contains(r.Warnings[0], `"fifo"`) || !strings.Contains(r.Warnings[0], "named pipe") ||
		!strings.Contains(r.Warnings[1], `"sock"`) || !strings.Contains(r.Warnings[1], "socket") {
		t.Errorf("warnings %q; want the FIFO and the socket named, with what they are", r.Warnings)
	}

	_, err = snap.ResolvePaths([]string{"fifo", "gone.txt"}, true)
	if err == nil || !strings.Contains(err.Error(), "named pipe") || !strings.Contains(err.Error(), "gone.txt") {
		t.Errorf("ResolvePaths(fifo, gone.txt) = %v; want an error naming both reasons", err)
	}
}
