package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/remote"
)

// remoteEnv is a private runtime directory for the shared servers of one
// test, and the environment that points the binary at it. The servers the
// test started are killed when it ends.
type remoteEnv struct {
	runtime string // XDG_RUNTIME_DIR
	env     []string
}

func newRemoteEnv(t *testing.T, idle string) *remoteEnv {
	t.Helper()
	runtime, err := os.MkdirTemp("", "rt") // short: a socket path has at most 103 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtime) })
	r := &remoteEnv{runtime: runtime, env: append(os.Environ(), "XDG_RUNTIME_DIR="+runtime, "STRUCTLS_REMOTE_IDLE="+idle, "STRUCTLS_REMOTE=")}
	t.Cleanup(func() {
		for _, pid := range r.serverPids(t) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return r
}

// dir is the directory of the shared servers' sockets.
func (r *remoteEnv) dir() string { return filepath.Join(r.runtime, "structls") }

// run runs the binary and returns its stdout, stderr and exit code.
func (r *remoteEnv) run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = r.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

var listeningPid = regexp.MustCompile(`shared server pid (\d+) listening`)

// serverPids lists the pids of the shared servers started, from their logs.
func (r *remoteEnv) serverPids(t *testing.T) []int {
	logs, _ := filepath.Glob(filepath.Join(r.dir(), "*.log"))
	var pids []int
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		for _, m := range listeningPid.FindAllStringSubmatch(string(data), -1) {
			pid, _ := strconv.Atoi(m[1])
			pids = append(pids, pid)
		}
	}
	return pids
}

// startServer runs a first command on root, which starts its shared
// server, and returns the server's pid.
func (r *remoteEnv) startServer(t *testing.T, root string) int {
	t.Helper()
	if _, _, code := r.run(t, "search", "--remote=auto", "--root", root, "f"); code != 0 {
		t.Fatalf("first call: exit %d", code)
	}
	pids := r.serverPids(t)
	if len(pids) != 1 {
		t.Fatalf("pids %v; want one server", pids)
	}
	return pids[0]
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// TestRemoteOutputIsTheInProcessOutput: every command prints the same
// bytes, on stdout and stderr, and exits with the same code through the
// shared server as in-process — found, not found, and errors.
func TestRemoteOutputIsTheInProcessOutput(t *testing.T) {
	r := newRemoteEnv(t, "60s")
	root := t.TempDir()
	if err := writeDemoWorkspace(root); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"astgrep", "-p", "strings.ToUpper($S)"},
		{"astgrep", "-p", "fmt.Println($$$A)", "--json"},
		{"astgrep", "-p", "nothing($A)"},
		{"astgrep", "-p", "func (", "-l", "go"},
		{"astgrep", "-p", "f($A)", "no/such/dir"},
		{"search", "Shout"},
		{"search", "--json", "TODO"},
		{"search", "("},
		{"outline", "util"},
		{"edit", "-p", "strings.ToUpper($S)", "-r", "strings.ToLower($S)"},
		{"xray", "-e", "func"},
		{"scan"},
	} {
		full := append([]string{args[0], "--root", root}, args[1:]...)
		wantOut, wantErr, wantCode := r.run(t, full...)
		gotOut, gotErr, gotCode := r.run(t, append([]string{"--remote=auto"}, full...)...)
		if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode {
			t.Errorf("%v: remote printed\n%.800s\nstderr %q, exit %d; in-process\n%.800s\nstderr %q, exit %d",
				args, gotOut, gotErr, gotCode, wantOut, wantErr, wantCode)
		}
	}
	if pids := r.serverPids(t); len(pids) != 1 {
		t.Errorf("%d shared servers started (pids %v); want one for the root", len(pids), pids)
	}
	// STRUCTLS_REMOTE=auto reaches the same server.
	r.env = append(r.env, "STRUCTLS_REMOTE=auto")
	if out, _, code := r.run(t, "search", "--root", root, "Shout"); code != 0 || !strings.Contains(out, "func Shout") {
		t.Errorf("STRUCTLS_REMOTE=auto: exit %d, %q", code, out)
	}
	if pids := r.serverPids(t); len(pids) != 1 {
		t.Errorf("%d shared servers after STRUCTLS_REMOTE=auto; want the same one", len(pids))
	}
}

// TestRemoteConcurrentProcessesShareOneServer: two CLI processes started
// at once with no server running start one between them, and both get
// their answer from it.
func TestRemoteConcurrentProcessesShareOneServer(t *testing.T) {
	r := newRemoteEnv(t, "60s")
	root := testutil.WriteTree(t, "-- a.go --\npackage p\n\nfunc g() { f(1); f(2) }\n")
	var wg sync.WaitGroup
	outs := make([]string, 2)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, errOut, code := r.run(t, "astgrep", "--remote=auto", "--root", root, "-p", "f($A)")
			outs[i] = out + errOut + strconv.Itoa(code)
		}()
	}
	wg.Wait()
	want := "# a.go\n*3|func g() { f(1); f(2) }\n  meta: A=1\n*3|func g() { f(1); f(2) }\n  meta: A=2\n\n2 matches in 1 file\n0"
	for i, o := range outs {
		if !strings.HasSuffix(o, want) {
			t.Errorf("process %d printed %q; want %q", i, o, want)
		}
	}
	if pids := r.serverPids(t); len(pids) != 1 {
		t.Fatalf("%d shared servers started (pids %v); want one", len(pids), pids)
	}
}

// TestRemoteKilledServerIsReplaced: a server killed outright leaves its
// socket behind; the next call removes it and starts a new server.
func TestRemoteKilledServerIsReplaced(t *testing.T) {
	r := newRemoteEnv(t, "60s")
	root := testutil.WriteTree(t, "-- a.go --\npackage p\n\nfunc g() { f(1) }\n")
	pid := r.startServer(t, root)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return !alive(pid) })
	sockets, _ := filepath.Glob(filepath.Join(r.dir(), "*.sock"))
	if len(sockets) != 1 {
		t.Fatalf("sockets %v after the kill; want the stale one left behind", sockets)
	}
	out, errOut, code := r.run(t, "search", "--remote=auto", "--root", root, "f")
	if code != 0 || !strings.Contains(out, "f(1)") {
		t.Fatalf("call after the kill: exit %d, %q %q", code, out, errOut)
	}
	if now := r.serverPids(t); len(now) != 2 || now[1] == pid || !alive(now[1]) {
		t.Errorf("servers %v; want a new one after %d", now, pid)
	}
}

// TestRemoteIdleServerExits: a server with no connection for its idle
// timeout exits and removes its socket.
func TestRemoteIdleServerExits(t *testing.T) {
	r := newRemoteEnv(t, "1s")
	root := testutil.WriteTree(t, "-- a.go --\npackage p\n")
	if _, _, code := r.run(t, "search", "--remote=auto", "--root", root, "package"); code != 0 {
		t.Fatalf("exit %d", code)
	}
	pids := r.serverPids(t)
	if len(pids) != 1 {
		t.Fatalf("pids %v", pids)
	}
	waitFor(t, func() bool { return !alive(pids[0]) })
	if sockets, _ := filepath.Glob(filepath.Join(r.dir(), "*.sock")); len(sockets) != 0 {
		t.Errorf("sockets %v left after the idle exit", sockets)
	}
}

// TestRemoteTinyIdleTimeout: with an idle timeout of a few milliseconds,
// shorter than the time from starting a server to connecting to it, each
// run still gets its answer: the server waits for its first connection
// (a server that left before it came kept its client polling for a minute,
// and then blamed it for not listening), and exits after its last. A bad
// value is refused before any server starts.
func TestRemoteTinyIdleTimeout(t *testing.T) {
	r := newRemoteEnv(t, "5ms")
	root := testutil.WriteTree(t, "-- a.go --\npackage p\n")
	for i := 0; i < 5; i++ {
		if out, errOut, code := r.run(t, "search", "--remote=auto", "--root", root, "package"); code != 0 || !strings.Contains(out, "a.go") {
			t.Fatalf("run %d: exit %d, stdout %q, stderr %q", i, code, out, errOut)
		}
	}
	bad := newRemoteEnv(t, "soon")
	if _, errOut, code := bad.run(t, "search", "--remote=auto", "--root", root, "package"); code != 2 || !strings.Contains(errOut, `STRUCTLS_REMOTE_IDLE="soon" is not a positive duration`) {
		t.Errorf("STRUCTLS_REMOTE_IDLE=soon: exit %d, stderr %q; want 2 and what to set", code, errOut)
	}
	if pids := bad.serverPids(t); len(pids) != 0 {
		t.Errorf("servers %v started with a bad idle timeout", pids)
	}
}

// TestRemoteNeverUsesForeignSockets: a directory or socket that is not
// this user's own and private is refused with a message that says what to
// do, never used, never removed; no server is started.
func TestRemoteNeverUsesForeignSockets(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to make files owned by another user")
	}
	const other = 4242
	root := testutil.WriteTree(t, "-- a.go --\npackage p\n")
	real, err := remote.RealRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"directory of another user", func(t *testing.T, dir string) {
			mkdir(t, dir, 0o700)
			chown(t, dir, other)
		}, "owned by uid 4242"},
		{"directory open to others", func(t *testing.T, dir string) {
			mkdir(t, dir, 0o755)
		}, "its mode is 0755, not 0700"},
		{"directory through a link", func(t *testing.T, dir string) {
			target := filepath.Join(filepath.Dir(dir), "elsewhere")
			mkdir(t, target, 0o700)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, "symbolic link"},
		{"socket of another user", func(t *testing.T, dir string) {
			mkdir(t, dir, 0o700)
			socket := remote.SocketPath(dir, real, buildID(binary))
			ln, err := net.Listen("unix", socket)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ln.Close() })
			chown(t, socket, other)
		}, "owned by uid 4242"},
		{"socket open to others", func(t *testing.T, dir string) {
			mkdir(t, dir, 0o700)
			socket := remote.SocketPath(dir, real, buildID(binary))
			ln, err := net.Listen("unix", socket)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ln.Close() })
			if err := os.Chmod(socket, 0o666); err != nil {
				t.Fatal(err)
			}
		}, "its mode is 0666"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRemoteEnv(t, "60s")
			tc.setup(t, r.dir())
			before := listing(t, r.dir())
			out, errOut, code := r.run(t, "search", "--remote=auto", "--root", root, "package")
			if code != exitError || out != "" || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "remove it") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and a message naming %q and what to do", code, out, errOut, tc.want)
			}
			if after := listing(t, r.dir()); after != before {
				t.Errorf("the directory changed:\n%s\nwas\n%s", after, before)
			}
			if pids := r.serverPids(t); len(pids) != 0 {
				t.Errorf("a server was started: %v", pids)
			}
		})
	}
}

func mkdir(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func chown(t *testing.T, path string, uid int) {
	t.Helper()
	if err := os.Lchown(path, uid, uid); err != nil {
		t.Fatal(err)
	}
}

// listing names the entries of dir with their modes and owners.
func listing(t *testing.T, dir string) string {
	entries, _ := os.ReadDir(dir)
	var b strings.Builder
	for _, e := range entries {
		info, _ := e.Info()
		st := info.Sys().(*syscall.Stat_t)
		b.WriteString(e.Name() + " " + info.Mode().String() + " " + strconv.Itoa(int(st.Uid)) + "\n")
	}
	return b.String()
}

// waitFor waits, at most 60 s, for cond.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatal("still not so after 60 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRemoteLostSaysWhatHappened: a connection to the shared server that
// breaks during a command (the server killed mid-query left a bare "EOF")
// is reported as such, with the server's log and what to do; other errors,
// and every error of an in-process command, are left as they are.
func TestRemoteLostSaysWhatHappened(t *testing.T) {
	defer func(s string) { remoteSocket = s }(remoteSocket)
	other := errors.New("structls.search failed: bad regex")
	for _, tc := range []struct {
		socket string
		err    error
		want   string // in the message; "" for the error unchanged
	}{
		{"/run/s.sock", io.EOF, "the shared server closed the connection during the command (EOF): it ended, crashed or was killed (its log: /run/s.sock.log)"},
		{"/run/s.sock", fmt.Errorf("read: %w", syscall.ECONNRESET), "Run the command again (a new server starts), or without --remote"},
		{"/run/s.sock", other, ""},
		{"", io.EOF, ""},
	} {
		remoteSocket = tc.socket
		got := remoteLost(tc.err)
		if tc.want == "" && got != tc.err || tc.want != "" && !strings.Contains(got.Error(), tc.want) {
			t.Errorf("socket %q, %v: got %v; want %q", tc.socket, tc.err, got, tc.want)
		}
	}
}

// TestRemoteStoppedOrSilentServer: a command never waits forever on a
// shared server that cannot answer. One stopped (SIGSTOP) is given up on
// after stoppedFor, saying how to resume or kill it; a listener that takes
// the connection and never answers, after remoteHandshakeTimeout.
func TestRemoteStoppedOrSilentServer(t *testing.T) {
	r := newRemoteEnv(t, "60s")
	root := testutil.WriteTree(t, "-- a.go --\npackage p\n\nfunc g() { f(1) }\n")
	pid := r.startServer(t, root)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := r.run(t, "search", "--remote=auto", "--root", root, "f")
	syscall.Kill(pid, syscall.SIGCONT)
	if code != 2 || !strings.Contains(errOut, "has been stopped") || !strings.Contains(errOut, fmt.Sprintf("kill -CONT %d", pid)) {
		t.Errorf("against a stopped server: exit %d, %q; want an error saying it is stopped and how to resume it", code, errOut)
	}

	sockets, _ := filepath.Glob(filepath.Join(r.dir(), "*.sock"))
	if len(sockets) != 1 {
		t.Fatalf("sockets %v", sockets)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	waitFor(t, func() bool { return !alive(pid) })
	os.Remove(sockets[0])
	ln, err := net.Listen("unix", sockets[0]) // takes connections, never answers
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := os.Chmod(sockets[0], 0o600); err != nil { // as a structls socket is
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	_, errOut, code = r.run(t, "search", "--remote=auto", "--root", root, "f")
	if code != 2 || !strings.Contains(errOut, "did not answer in") || !strings.Contains(errOut, fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("against a silent listener: exit %d, %q; want an error saying it did not answer, naming this test's pid", code, errOut)
	}
}
