package remote

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// startWait bounds how long Dial waits for a server it started to listen.
const startWait = 60 * time.Second

// Dial connects to this user's shared server for the root (its real path)
// and build, starting one when none answers: command is the command line
// that runs a shared server on that socket (structls daemon …). A stale
// socket — its server gone — is removed and replaced; a socket or
// directory that is not this user's own and private is never used. Two
// processes dialling at once start one server between them (a lock file
// in the directory). A server that exits before it could be reached is
// replaced, maxStarts times at most, and then reported with how it ended.
func Dial(ctx context.Context, socket string, command []string) (net.Conn, error) {
	if c, err := connect(socket); err == nil || !replaceable(err) {
		return c, err
	}
	unlock, err := lock(socket + ".lock")
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Another process may have started the server while this one waited.
	c, err := connect(socket)
	if err == nil || !replaceable(err) {
		return c, err
	}
	for attempt := 1; ; attempt++ {
		c, err := startAndConnect(ctx, socket, command)
		var exit *earlyExit
		if !errors.As(err, &exit) || attempt == maxStarts {
			return c, err
		}
		// It listened and left before this process connected (its idle
		// timeout, as short as STRUCTLS_REMOTE_IDLE may set it), or it failed
		// to start: start another, and give up after maxStarts.
	}
}

// maxStarts is how many servers Dial starts, one after the other, when
// each exits before it could be reached.
const maxStarts = 3

// earlyExit is a server Dial started that exited before Dial connected.
type earlyExit struct {
	socket string
	status error // how the server process ended
}

func (e *earlyExit) Error() string {
	return fmt.Sprintf("the shared server exited (%v) before it could be reached on %s: run the command without --remote, or see %s.log", e.status, e.socket, e.socket)
}

// startAndConnect removes a stale socket, starts a server on it and
// connects to it once it listens. It gives up, with an *earlyExit, as soon as
// the server process ends, and after startWait.
func startAndConnect(ctx context.Context, socket string, command []string) (net.Conn, error) {
	if err := os.Remove(socket); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("removing the stale socket %s: %w", socket, err)
	}
	exited, err := start(command, socket+".log")
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(startWait)
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 200*time.Millisecond) {
		c, err := connect(socket)
		if err == nil || !replaceable(err) {
			return c, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the shared server did not start listening on %s within %v: run the command without --remote, or see %s.log", socket, startWait, socket)
		}
		select {
		case <-time.After(delay):
		case status := <-exited:
			if c, err := connect(socket); err == nil { // (a server another process started since)
				return c, nil
			}
			if status == nil {
				status = errors.New("exit status 0")
			}
			return nil, &earlyExit{socket: socket, status: status}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// connect connects to the socket after checking that it is this user's.
func connect(socket string) (net.Conn, error) {
	if err := checkSocket(socket); err != nil {
		return nil, err
	}
	return net.Dial("unix", socket)
}

// replaceable reports whether a connect error means no server runs there:
// no socket, or one nobody listens on.
func replaceable(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED)
}

// start runs the server detached: in a session of its own, so that it
// outlives the CLI process and its terminal, what it prints (a crash) in
// the socket's log file. The channel gets how the process ended, if it
// ends while this process lives (it is reaped then).
func start(command []string, log string) (<-chan error, error) {
	out, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("the shared server's log: %w%s", err, removeHint(err, log))
	}
	defer out.Close()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the shared server: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return exited, nil
}

// lock takes an exclusive lock on the file, created private.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("the shared server's lock: %w%s", err, removeHint(err, path))
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("the shared server's lock: %w", err)
	}
	return func() { f.Close() }, nil
}

// removeHint says what to do when a file of the shared server's is a
// symbolic link (never followed, as someone may have planted it) or
// otherwise not openable by this user.
func removeHint(err error, path string) string {
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) {
		return fmt.Sprintf(" (it is a symbolic link, or not this user's: remove %s)", path)
	}
	return ""
}
