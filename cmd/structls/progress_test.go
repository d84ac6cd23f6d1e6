package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestProgressLine: the line shows nothing before the command has run
// progressAfter, then the server's title, a bar once the total is known,
// and the files done; it is redrawn only when it changes, cut to the
// terminal's width, and cleared at the end.
func TestProgressLine(t *testing.T) {
	var term bytes.Buffer
	p := &progressLine{term: &term, width: 50, token: `"t"`, after: progressAfter, percent: -1, start: time.Unix(0, 0)}
	at := func(d time.Duration) { p.draw(time.Unix(0, 0).Add(d)) }
	p.notify("$/progress", []byte(`{"token":"other","value":{"kind":"begin","title":"Other"}}`))
	p.notify("$/progress", []byte(`{"token":"t","value":{"kind":"begin","title":"Structural search"}}`))
	p.notify("$/progress", []byte(`{"token":"t","value":{"kind":"report","message":"40 files"}}`))
	at(progressAfter - time.Millisecond)
	if term.Len() != 0 {
		t.Fatalf("drew %q before %v", term.String(), progressAfter)
	}
	at(progressAfter)
	at(progressAfter + progressTick) // unchanged: not drawn again
	p.notify("$/progress", []byte(`{"token":"t","value":{"kind":"report","message":"12/25 files","percentage":48}}`))
	at(progressAfter + 2*progressTick)
	p.notify("$/progress", []byte(`{"token":"t","value":{"kind":"report","message":"a message much too long to fit on the line","percentage":100}}`))
	at(progressAfter + 3*progressTick)
	p.mu.Lock()
	p.clearLocked()
	p.mu.Unlock()
	want := "\rStructural search… 40 files\x1b[K" +
		"\rStructural search [#######---------] 12/25 files\x1b[K" + // 16 columns of bar fit
		"\rStructural search… a message much too long to fit\x1b[K" + // no room for a bar; 49 columns

		"\r\x1b[K"
	if term.String() != want {
		t.Errorf("the terminal got\n%q\nwant\n%q", term.String(), want)
	}
}

// openPty opens a pseudo-terminal of 100 columns: the program gets tty,
// the test reads what it draws from pty.
func openPty(t *testing.T) (pty, tty *os.File) {
	t.Helper()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { pty.Close() })
	if err := unix.IoctlSetPointerInt(int(pty.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetUint32(int(pty.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 100}); err != nil {
		t.Fatal(err)
	}
	return pty, tty
}

// ptyRun runs the structls binary in dir with its stderr on a terminal (or
// a pipe, when onTerminal is false) and returns its stdout, what reached
// its stderr, and how long it ran.
func ptyRun(t *testing.T, dir string, onTerminal bool, args ...string) (stdout, stderr string, elapsed time.Duration) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var out, errPipe bytes.Buffer
	cmd.Stdout = &out
	read := make(chan []byte, 1)
	if onTerminal {
		pty, tty := openPty(t)
		cmd.Stderr = tty
		go func() {
			b, err := io.ReadAll(pty) // ends with EIO once no process holds the terminal
			if err != nil && !errors.Is(err, unix.EIO) {
				t.Errorf("reading the terminal: %v", err)
			}
			read <- b
		}()
		defer tty.Close()
	} else {
		cmd.Stderr = &errPipe
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if tty, ok := cmd.Stderr.(*os.File); ok {
		tty.Close() // the child holds it now
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute): // a hang, not a time limit
		cmd.Process.Kill()
		t.Fatalf("structls %s did not end", strings.Join(args, " "))
	}
	elapsed = time.Since(start)
	if onTerminal {
		return out.String(), string(<-read), elapsed
	}
	return out.String(), errPipe.String(), elapsed
}

// TestProgressOnATerminal runs long commands over the Go standard library
// with stderr on a real pseudo-terminal: each shows its progress there
// (its title, then the files done) and clears it at the end, and nothing
// of it reaches stdout; with --json, or with stderr a pipe, not one byte
// of progress is written (issue 23, point 7). Progress shows after
// progressAfter, so a machine fast enough to end a run sooner rightly
// shows none: that run is checked for no progress instead.
func TestProgressOnATerminal(t *testing.T) {
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(src, "net", "http")); err != nil {
		t.Skipf("no Go standard library source here: %v", err)
	}
	rule := filepath.Join(t.TempDir(), "rule.yml")
	if err := os.WriteFile(rule, []byte("id: err-return\nlanguage: go\nseverity: warning\nmessage: an error returned\nrule:\n  pattern: if err != nil { return $$$ }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		title string
		args  []string
	}{
		{"Structural search", []string{"astgrep", "-l", "go", "-p", "if err != nil { return $$$ }", "--limit", "1", "net", "crypto"}},
		{"Searching", []string{"search", `[a-z]+\([a-z]+, [a-z]+\)$`, "cmd"}},
		{"Scanning with rules", []string{"scan", "-r", rule, "net"}},
		{"X-Ray search", []string{"xray", "-e", "func", "--eval-code", `return {"matches": [{"line_number": 1, "n": len(node.descendants_of_type("identifier"))}]}`, "net"}},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			stdout, term, elapsed := ptyRun(t, src, true, tc.args...)
			t.Logf("%s: %v, %d bytes on the terminal", tc.args[0], elapsed.Round(time.Millisecond), len(term))
			if strings.ContainsAny(stdout, "\r\x1b") {
				t.Errorf("stdout holds progress bytes: %q", stdout[:min(len(stdout), 300)])
			}
			switch {
			case elapsed < progressAfter:
				if strings.Contains(term, "\x1b[K") {
					t.Errorf("a run of %v drew progress: %q", elapsed, term)
				}
			case elapsed > progressAfter+time.Second:
				last := strings.LastIndex(term, "\r"+tc.title)
				if last < 0 || !strings.Contains(term, " files\x1b[K") || !strings.Contains(term[last:], "\r\x1b[K") {
					t.Errorf("a run of %v drew\n%q\nwant %q lines with the files done, then the line cleared", elapsed, term[max(0, len(term)-600):], tc.title)
				}
			}
			stdout, term, elapsed = ptyRun(t, src, true, append(tc.args, "--json")...)
			if strings.ContainsAny(term, "\r\x1b") || strings.ContainsAny(stdout, "\x1b") {
				t.Errorf("--json, %v: the terminal got %q", elapsed, term[:min(len(term), 300)])
			}
		})
	}
	t.Run("stderr a pipe", func(t *testing.T) {
		_, stderr, elapsed := ptyRun(t, src, false, "astgrep", "-l", "go", "-p", "if err != nil { return $$$ }", "--limit", "1", "net", "crypto")
		if strings.ContainsAny(stderr, "\r\x1b") || strings.Contains(stderr, "Structural search") {
			t.Errorf("a run of %v wrote progress to a pipe: %q", elapsed, stderr[:min(len(stderr), 300)])
		}
	})
}
