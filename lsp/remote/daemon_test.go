package remote

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// TestListenNeverShowsAnOpenSocket: a process polling the socket's name
// while the server starts (Dial does) must only ever find no socket or a
// private one, never the socket with the mode the umask gave it, which it
// would refuse ("is not this user's structls socket") instead of waiting:
// two agents' first calls at once failed so. 300 starts, watched
// throughout.
func TestListenNeverShowsAnOpenSocket(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.sock")
	var stop atomic.Bool
	var refused atomic.Value
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			if err := checkSocket(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				refused.Store(err)
				return
			}
		}
	})
	for i := 0; i < 300 && refused.Load() == nil; i++ {
		ln, err := listen(path)
		if err != nil {
			t.Fatal(err)
		}
		ln.Close()
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if err := refused.Load(); err != nil {
		t.Errorf("while the server started, the socket was refused: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left in the socket directory: %v; want nothing", entries)
	}
}

// TestListenRefusesATakenName: like listening on the name, linking the
// socket to it fails when a file is there already, which stays as it was.
func TestListenRefusesATakenName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.sock")
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ln, err := listen(path); err == nil {
		ln.Close()
		t.Fatal("listen on a name taken by a file succeeded; want an error")
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "x" {
		t.Errorf("the file at the name is now %q (%v); want it untouched", b, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the socket directory holds %v; want the file alone", entries)
	}
}
