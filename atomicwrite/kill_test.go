package atomicwrite

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// killChildDir, when set, makes the test binary the child of TestKilledMidWrite:
// it previews f($A) → F($A) there, says "ready", writes, says "done".
const killChildDir = "STRUCTLS_REWRITE_KILL_CHILD"

func init() {
	dir := os.Getenv(killChildDir)
	if dir == "" {
		return
	}
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	plan, err := rewrite.Preview(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF8}, rewrite.Query{Ops: ops("f($A)", "F($A)"), Lang: "go"})
	if err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	fmt.Println("ready")
	if err := WriteFiles(context.Background(), plan, snap); err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	fmt.Println("done")
	os.Exit(0)
}

// TestKilledMidWrite kills a process writing a plan (SIGKILL, at random
// points of its write, again and again): every file is always whole — its
// old text or its new one, never missing, never half-written — and once
// Recover ran (as the next structls run does) no temporary file is left and
// all files hold the same text, all old or all new.
func TestKilledMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes; run without -short")
	}
	const files = 200
	oldText := func(i int) string {
		return fmt.Sprintf("package p\n\nvar v%d = f(%d) + f(\"%s\")\n", i, i, strings.Repeat("x", 4000))
	}
	newText := func(i int) string {
		return fmt.Sprintf("package p\n\nvar v%d = F(%d) + F(\"%s\")\n", i, i, strings.Repeat("x", 4000))
	}
	write := func(dir string) {
		for i := range files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.go", i)), []byte(oldText(i)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// run starts the child and kills it after delay once it is ready (never,
	// with delay < 0); it returns how long the write took or ran.
	run := func(dir string, delay time.Duration) time.Duration {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), killChildDir+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		if !lines.Scan() || lines.Text() != "ready" {
			t.Fatalf("child: %q", lines.Text())
		}
		start := time.Now()
		if delay >= 0 {
			time.Sleep(delay)
			_ = cmd.Process.Signal(syscall.SIGKILL)
		}
		for lines.Scan() {
		}
		_ = cmd.Wait()
		return time.Since(start)
	}
	full := run(func() string { d := t.TempDir(); write(d); return d }(), -1)
	killed := 0
	for round := range 12 {
		dir := t.TempDir()
		write(dir)
		delay := time.Duration(rand.Int64N(int64(full) + 1))
		run(dir, delay)
		leftovers := tempsLeft(t, dir)
		real, _ := filepath.EvalSymlinks(dir)
		notes := Recover([]string{real})
		if left := tempsLeft(t, dir); len(left) > 0 {
			t.Fatalf("round %d (killed after %v): %d temporary files left after Recover (%v): %v", round, delay, len(left), notes, left[:min(len(left), 5)])
		}
		changed := 0
		for i := range files {
			b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("f%03d.go", i)))
			switch {
			case err != nil:
				t.Fatalf("round %d (killed after %v): f%03d.go: %v", round, delay, i, err)
			case string(b) == newText(i):
				changed++
			case string(b) != oldText(i):
				t.Fatalf("round %d (killed after %v): f%03d.go is neither its old nor its new text: %q…", round, delay, i, b[:min(len(b), 60)])
			}
		}
		if changed != 0 && changed != files {
			t.Fatalf("round %d (killed after %v): after Recover %d of %d files hold the new text: an apply must end all old or all new (%v)",
				round, delay, changed, files, notes)
		}
		if len(notes) > 0 {
			killed++
		}
		t.Logf("round %d: killed after %v (a full write takes %v): %d temporary files left by the kill; after Recover %d of %d files new; %v",
			round, delay, full, len(leftovers), changed, files, notes)
	}
	if killed == 0 {
		t.Errorf("no kill landed inside a write, so Recover was never tested")
	}
}
