package workspace

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// openModes runs a test with openat2 and with the step-by-step fallback of
// kernels without it.
func openModes(t *testing.T, test func(t *testing.T)) {
	for _, mode := range []string{"openat2", "stepwise"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "openat2" && !useOpenat2() {
				t.Skip("openat2 cannot be used here")
			}
			saved := openat2Missing.Load()
			openat2Missing.Store(mode == "stepwise")
			defer openat2Missing.Store(saved)
			test(t)
		})
	}
}

const secret = "SECRET outside the workspace"

// swapWorkspace makes ws/sub/a.txt inside the workspace and, outside it,
// outside/a.txt and outside/b.txt holding secret.
func swapWorkspace(t *testing.T) (ws, outside string) {
	t.Helper()
	base := t.TempDir()
	ws, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for path, text := range map[string]string{
		filepath.Join(ws, "sub", "a.txt"): "inside\n", filepath.Join(ws, "top.txt"): "top\n",
		filepath.Join(outside, "a.txt"): secret, filepath.Join(outside, "b.txt"): secret,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws, outside
}

// swapToSymlink replaces the directory ws/sub with a symlink to outside.
func swapToSymlink(t testing.TB, ws, outside string) {
	if err := os.Rename(filepath.Join(ws, "sub"), filepath.Join(ws, "sub.moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "sub")); err != nil {
		t.Fatal(err)
	}
}

func folderSnapshot(t *testing.T, dir string) *Snapshot {
	t.Helper()
	f, err := NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return NewSnapshot([]Folder{f}, Settings{}, nil)
}

// readAll walks the whole folder and reads every file, failing the test if
// any content comes from outside the workspace.
func readAll(t testing.TB, snap *Snapshot) []string {
	files, err := snap.Walk(context.Background(), []Target{{Base: snap.Folders[0].Real, IsDir: true}}, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, f := range files {
		rels = append(rels, f.Rel)
		content, _ := snap.ReadFile(f, nil)
		if strings.Contains(string(content), secret) {
			t.Fatalf("read %s from outside the workspace through a swapped symlink", f.Rel)
		}
	}
	return rels
}

// TestReadFileAfterSymlinkSwap: the walk found sub/a.txt; sub is then swapped
// for a symlink to a directory outside. Reading the file must fail, not
// follow the symlink.
func TestReadFileAfterSymlinkSwap(t *testing.T) {
	openModes(t, func(t *testing.T) {
		ws, outside := swapWorkspace(t)
		snap := folderSnapshot(t, ws)
		files, err := snap.Walk(context.Background(), []Target{{Base: snap.Folders[0].Real, IsDir: true}}, WalkOptions{})
		if err != nil || len(files) != 2 {
			t.Fatalf("Walk = %v, %v; want sub/a.txt and top.txt", files, err)
		}
		swapToSymlink(t, ws, outside)
		for _, f := range files {
			content, err := snap.ReadFile(f, nil)
			if strings.Contains(string(content), secret) {
				t.Fatalf("ReadFile(%s) read the file outside the workspace", f.Rel)
			}
			if f.Rel == "sub/a.txt" && err == nil {
				t.Errorf("ReadFile(sub/a.txt) = %q; want the symlink refused", content)
			}
		}
	})
}

// TestWalkSymlinkSwapBetweenListingAndOpening swaps sub for a symlink right
// after the walk has listed the folder root (and so seen sub as a directory):
// nothing below the symlink may be listed or read.
func TestWalkSymlinkSwapBetweenListingAndOpening(t *testing.T) {
	openModes(t, func(t *testing.T) {
		ws, outside := swapWorkspace(t)
		snap := folderSnapshot(t, ws)
		testHookAfterList = func(dir string) {
			if dir == snap.Folders[0].Real {
				swapToSymlink(t, ws, outside)
			}
		}
		defer func() { testHookAfterList = nil }()
		if rels := readAll(t, snap); strings.Join(rels, ",") != "top.txt" {
			t.Errorf("walked %v; want only top.txt (sub became a symlink before it was opened)", rels)
		}
	})
}

// TestSymlinkSwapRace swaps sub between a directory and a symlink to outside
// as fast as it can while the folder is walked and read over and over: no
// read may ever return a byte from outside. Bounded to a second.
func TestSymlinkSwapRace(t *testing.T) {
	openModes(t, func(t *testing.T) {
		ws, outside := swapWorkspace(t)
		snap := folderSnapshot(t, ws)
		sub, dir, link := filepath.Join(ws, "sub"), filepath.Join(ws, "sub.dir"), filepath.Join(ws, "sub.link")
		if err := os.Symlink(outside, link); err != nil {
			t.Fatal(err)
		}
		stop, stopped := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(stopped)
			for {
				select {
				case <-stop:
					return
				default:
				}
				// sub: directory → symlink → directory, each step one rename.
				_ = os.Rename(sub, dir)
				_ = os.Rename(link, sub)
				_ = os.Rename(sub, link)
				_ = os.Rename(dir, sub)
			}
		}()
		deadline := time.Now().Add(500 * time.Millisecond)
		for i := 0; i < 2000 && time.Now().Before(deadline); i++ {
			readAll(t, snap)
		}
		close(stop)
		<-stopped
	})
}

// TestOpenNoSymlinks checks the confined open itself.
func TestOpenNoSymlinks(t *testing.T) {
	openModes(t, func(t *testing.T) {
		ws, outside := swapWorkspace(t)
		if err := os.Symlink(outside, filepath.Join(ws, "link")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("sub/a.txt", filepath.Join(ws, "filelink")); err != nil {
			t.Fatal(err)
		}
		root, err := openFolderRoot(ws)
		if err != nil {
			t.Fatal(err)
		}
		defer root.close()
		for _, tc := range []struct {
			path string
			ok   bool
		}{
			{"sub/a.txt", true}, {"top.txt", true}, {"./sub//a.txt", true}, {"sub", true},
			{"link/a.txt", false}, {"filelink", false}, {"../outside/a.txt", false}, {"sub/../../outside/a.txt", false},
			{filepath.Join(outside, "a.txt"), false}, {"missing.txt", false},
		} {
			fd, err := root.open(tc.path, syscall.O_RDONLY, false)
			if err == nil {
				syscall.Close(fd)
			}
			if (err == nil) != tc.ok {
				t.Errorf("open(%q) = %v; want success %v", tc.path, err, tc.ok)
			}
		}
		if _, err := openFolderRoot(filepath.Join(ws, "link")); err == nil {
			t.Error("openFolderRoot through a symlink succeeded; want it refused")
		}
	})
}

// TestSnapshotRootHandlesClosed checks that the folder root handles a
// snapshot opens are closed once the snapshot is garbage collected.
func TestSnapshotRootHandlesClosed(t *testing.T) {
	ws, _ := swapWorkspace(t)
	openFDs := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd:", err)
		}
		return len(entries)
	}
	before := openFDs()
	for range 50 {
		snap := folderSnapshot(t, ws)
		readAll(t, snap)
	}
	for deadline := time.Now().Add(30 * time.Second); openFDs() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d descriptors open after 50 snapshots were collected; %d before", openFDs(), before)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
