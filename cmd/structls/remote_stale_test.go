package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestRemoteNeverServesAChangedFile: the shared server gets no watched-file
// events; it takes a file's cached tree unread while the file's stat stamp
// is unchanged. A file rewritten between two calls with the same size and
// its old mtime put back — the one file the first call matched, and one it
// could not match and parsed only to fill the cache — gives its new text,
// as in-process.
func TestRemoteNeverServesAChangedFile(t *testing.T) {
	r := newRemoteEnv(t, "60s")
	root := testutil.WriteTree(t, "-- a.go --\npackage p\n\nfunc _() { f(1) }\n-- b.go --\npackage p\n\nfunc _() { g(1) }\n")
	time.Sleep(workspace.StampSlack + 100*time.Millisecond) // the stamps are trusted from the first call on
	query := []string{"astgrep", "--root", root, "-p", "f($A)"}
	remoteQuery := append([]string{"--remote=auto"}, query...)
	if out, errOut, code := r.run(t, remoteQuery...); code != 0 || out != "# a.go\n*3|func _() { f(1) }\n  meta: A=1\n\n1 match in 1 file\n" {
		t.Fatalf("first call: exit %d, %q %q", code, out, errOut)
	}
	if out, _, code := r.run(t, remoteQuery...); code != 0 || out != "# a.go\n*3|func _() { f(1) }\n  meta: A=1\n\n1 match in 1 file\n" {
		t.Fatalf("second call, nothing changed: exit %d, %q", code, out)
	}
	rewriteKeepingMtime(t, filepath.Join(root, "a.go"), "package p\n\nfunc _() { f(2) }\n")
	rewriteKeepingMtime(t, filepath.Join(root, "b.go"), "package p\n\nfunc _() { f(3) }\n")
	wantOut, wantErr, wantCode := r.run(t, query...)
	gotOut, gotErr, gotCode := r.run(t, remoteQuery...)
	if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode || wantCode != 0 {
		t.Errorf("after the rewrites the remote call printed %q %q, exit %d; in-process %q %q, exit %d",
			gotOut, gotErr, gotCode, wantOut, wantErr, wantCode)
	}
}

// rewriteKeepingMtime writes text (of the same size) over the file at path
// and puts its mtime back, until its ctime shows the change (a rewrite in
// the clock tick of the last change shows nowhere).
func rewriteKeepingMtime(t *testing.T, path, text string) {
	t.Helper()
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if before.Size() != int64(len(text)) {
		t.Fatalf("the rewrite of %s changes its size: %d bytes, was %d", path, len(text), before.Size())
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, before.ModTime(), before.ModTime()); err != nil {
			t.Fatal(err)
		}
		now, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if now.Sys().(*syscall.Stat_t).Ctim != before.Sys().(*syscall.Stat_t).Ctim {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ctime of %s did not change in 10 s", path)
		}
	}
}
