package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// runBinary runs the built structls with args and stdin, in dir.
func runBinary(t *testing.T, dir string, stdin *os.File, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("structls %q did not finish in 60 s (waiting on stdin?)", args)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// openPTY returns the terminal side of a new pseudo-terminal (and closes
// both sides at the end of the test).
func openPTY(t *testing.T) *os.File {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile(filepath.Join("/dev/pts", strconv.Itoa(n)), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}

// TestHelpListsEveryCommand: `structls --help`, `-h`, `help`, and bare
// `structls` typed at a terminal print every command with its summary on
// stdout, exit 0; bare `structls` with stdin not a terminal still serves.
func TestHelpListsEveryCommand(t *testing.T) {
	tty := openPTY(t)
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {}} {
		code, stdout, stderr := runBinary(t, t.TempDir(), tty, args...)
		if code != 0 || stderr != "" {
			t.Errorf("structls %q: exit %d, stderr %q", args, code, stderr)
		}
		for _, c := range commands {
			if !strings.Contains(stdout, "  "+c.name) || !strings.Contains(stdout, c.summary) {
				t.Errorf("structls %q does not list %s with its summary:\n%s", args, c.name, stdout)
			}
		}
	}
	// An editor starting structls with a pipe gets the server: EOF on stdin
	// ends it without a word on stdout.
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	if _, stdout, _ := runBinary(t, t.TempDir(), devNull); stdout != "" {
		t.Errorf("bare structls with stdin not a terminal wrote %q: it must serve LSP", stdout)
	}
}

// TestCommandHelp: `structls CMD --help` (and -h, and `structls help CMD`)
// prints that command's usage, summary and example on stdout, exit 0.
func TestCommandHelp(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {"help", c.name}} {
			code, stdout, stderr := runBinary(t, t.TempDir(), nil, args...)
			if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "usage: "+c.synopsis[0]+"\n") ||
				!strings.Contains(stdout, "\nexample:\n  "+c.example+"\n") || !strings.Contains(stdout, c.summary) {
				t.Errorf("structls %q: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout, stderr)
			}
		}
	}
	// A mistyped flag: the usage and the error on stderr, nothing on stdout.
	code, stdout, stderr := runBinary(t, t.TempDir(), nil, "astgrep", "--no-such-flag")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "usage: structls astgrep -p PATTERN") ||
		!strings.Contains(stderr, "structls astgrep --help shows every flag") || strings.Count(stderr, "-no-such-flag") != 1 {
		t.Errorf("a mistyped flag: exit %d\nstdout: %q\nstderr: %q", code, stdout, stderr)
	}
}

// TestUsageMatchesReadme: the usage lines are README.md's "Command line"
// block, line for line, in order: one text, documented as it is printed.
func TestUsageMatchesReadme(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Command line\n\n```\n")
	block, _, ok2 := strings.Cut(section, "\n```\n")
	if !ok || !ok2 {
		t.Fatal("README.md has no ``` block right after \"## Command line\"")
	}
	var ours []string
	for _, c := range commands {
		ours = append(ours, c.synopsis...)
	}
	if strings.Join(ours, "\n") != block {
		t.Errorf("the usage lines of help.go differ from README.md's Command line block:\nhelp.go:\n%s\nREADME.md:\n%s",
			strings.Join(ours, "\n"), block)
	}
}

// TestHelpExamplesRun runs the examples of the commands that only read, in
// a copy of the demo workspace: each must run (exit 0 or 1, not 2).
func TestHelpExamplesRun(t *testing.T) {
	dir := t.TempDir()
	if err := writeDemoWorkspace(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"astgrep", "search", "edit", "xray", "scan", "outline", "languages", "version"} {
		c, _ := lookupCommand(name)
		cmd := exec.Command("bash", "-c", c.example)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
			t.Errorf("the %s example %s: %v\n%s", name, c.example, err, out)
		}
	}
}
