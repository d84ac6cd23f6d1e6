package remote

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDialNoticesAServerThatExits: a server Dial starts that ends before
// it could be reached — one that fails to start (a bad flag), or listens and
// leaves at once (an idle timeout of a few milliseconds) — makes Dial give
// up with the reason once it has started maxStarts of them, instead of
// polling the socket until startWait (a minute) has passed. The context's
// deadline, far shorter than startWait, is what Dial used to hit.
func TestDialNoticesAServerThatExits(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	socket, starts := filepath.Join(dir, "s.sock"), filepath.Join(dir, "starts")
	command := []string{"/bin/sh", "-c", `echo started >> "$0"; echo "invalid value for flag -idle" >&2; exit 2`, starts}
	ctx, cancel := context.WithTimeout(context.Background(), startWait/4)
	defer cancel()
	c, err := Dial(ctx, socket, command)
	if c != nil {
		c.Close()
	}
	var exit *earlyExit
	if !errors.As(err, &exit) || !strings.Contains(err.Error(), "exit status 2") || !strings.Contains(err.Error(), socket+".log") {
		t.Fatalf("Dial: %v; want the server's early exit (exit status 2) and its log named", err)
	}
	if b, _ := os.ReadFile(starts); strings.Count(string(b), "started") != maxStarts {
		t.Errorf("the server was started %d times; want %d", strings.Count(string(b), "started"), maxStarts)
	}
	if b, _ := os.ReadFile(socket + ".log"); !strings.Contains(string(b), "invalid value") {
		t.Errorf("the log holds %q; want what the server printed", b)
	}
}
