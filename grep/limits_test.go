package grep

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestSearchSkipsOpenDocumentOverLimit: an unsaved buffer larger than
// maxFileSize is skipped with a warning, as a file on disk is.
func TestSearchSkipsOpenDocumentOverLimit(t *testing.T) {
	dir := testutil.WriteTree(t, "-- small.txt --\nneedle\n")
	f, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	o := workspace.NewOverlay()
	o.Open(workspace.PathToURI(filepath.Join(dir, "big.txt")), "plaintext", 1, "needle\n"+strings.Repeat("x", 2000))
	snap := workspace.NewSnapshot([]workspace.Folder{f}, workspace.Settings{MaxFileSize: 1000}, o.Documents())
	res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Pattern: "needle"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || res.Matches[0].Path != "small.txt" {
		t.Errorf("matches %+v; want small.txt only", res.Matches)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "big.txt") || !strings.Contains(res.Warnings[0], "maxFileSize") {
		t.Errorf("warnings %q; want one naming big.txt and maxFileSize", res.Warnings)
	}
}

// TestSearchWarnsSpecialNamedFile: a FIFO named in `paths` is not opened; the
// result says it was skipped, and the other paths are searched.
func TestSearchWarnsSpecialNamedFile(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nneedle\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skip("cannot make a FIFO here:", err)
	}
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Pattern: "needle", Scope: workspace.Scope{Paths: []string{"pipe", "a.txt"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "named pipe") {
		t.Errorf("matches %d, warnings %q; want a.txt's match and a warning about the named pipe", len(res.Matches), res.Warnings)
	}
}

// TestSearchWarnsUnreadableNamedFile: a file named in `paths` that cannot be
// read is reported in warnings, not skipped in silence. Root reads any file,
// so as root the test runs itself again as user nobody.
func TestSearchWarnsUnreadableNamedFile(t *testing.T) {
	if os.Geteuid() == 0 {
		rerunUnprivileged(t)
		return
	}
	dir := testutil.WriteTree(t, "-- open.txt --\nneedle\n-- locked.txt --\nneedle\n")
	if err := os.Chmod(filepath.Join(dir, "locked.txt"), 0); err != nil {
		t.Fatal(err)
	}
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, Query{Pattern: "needle", Scope: workspace.Scope{Paths: []string{"open.txt", "locked.txt"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || res.Matches[0].Path != "open.txt" {
		t.Errorf("matches %+v; want open.txt's only", res.Matches)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "locked.txt") || !strings.Contains(res.Warnings[0], "permission denied") {
		t.Errorf("warnings %q; want one saying locked.txt cannot be read (permission denied)", res.Warnings)
	}
}

// rerunUnprivileged runs the calling test again in a child process as user
// nobody (65534), where file permissions apply, and fails if the child does.
// It skips when no such child can be started.
func rerunUnprivileged(t *testing.T) {
	t.Helper()
	if os.Getenv("STRUCTLS_TEST_UNPRIVILEGED") != "" {
		t.Fatal("the child meant to run unprivileged still runs as root")
	}
	self, err := os.Executable()
	if err != nil {
		t.Skip("cannot find the test binary:", err)
	}
	// The test binary's own directory, like t.TempDir, is not open to nobody: copy it.
	dir, err := os.MkdirTemp("", "structls-unprivileged")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "test.bin")
	if err := copyFile(self, bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "STRUCTLS_TEST_UNPRIVILEGED=1", "TMPDIR=/tmp")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &exitErr):
		t.Skip("cannot run the test as user nobody:", err)
	case err != nil || !bytes.Contains(out, []byte("--- PASS: "+t.Name())):
		t.Fatalf("run as user nobody: %v\n%s", err, out)
	}
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// TestSearchSkipNearMaxInt: a skip past every file, up to the largest
// integer, gives an empty page with no next page (no overflow into a
// negative or wrapped nextSkip).
func TestSearchSkipNearMaxInt(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.txt --\nx\n-- b.txt --\nx\n-- c.txt --\nx\n")
	snap := snapshotOf(t, dir)
	for _, skip := range []int{math.MaxInt, math.MaxInt - 1, math.MaxInt - 2, 3} {
		for _, limit := range []int{0, 1, 2, maxAllowedResultsPerPage} {
			res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Pattern: "x", Skip: skip, Limit: &limit, Format: "text"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Matches) != 0 || res.NextSkip != nil || res.FileLimitReached || res.TotalFiles != 3 {
				t.Errorf("skip %d, limit %d: %d matches, nextSkip %v, fileLimitReached %v, totalFiles %d; want an empty last page of 3 files",
					skip, limit, len(res.Matches), res.NextSkip, res.FileLimitReached, res.TotalFiles)
			}
		}
	}
}
