package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/remote"
)

// The CLI's shared server (--remote=auto, or STRUCTLS_REMOTE=auto): the
// commands that start a server (remoteCommands) connect instead to this
// user's shared server for the workspace root, started on first use and
// ended by its idle timeout, and drive it with the same client.Editor (lsp/client); their
// output and exit codes are those of the in-process CLI.

// remoteCommands are the commands --remote applies to.
var remoteCommands = map[string]bool{"astgrep": true, "search": true, "xray": true, "edit": true, "scan": true, "outline": true}

// remoteMode is the --remote of the running command: "auto" or "".
var remoteMode string

// takeRemoteFlag removes --remote=MODE (or --remote MODE, one dash or
// two) from the arguments before "--", wherever it is — before the
// command's name or among its flags — and returns the rest and the mode
// given, if any.
func takeRemoteFlag(args []string) (rest []string, mode *string, err error) {
	remoteMode = ""
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, inline := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !strings.HasPrefix(arg, "-") || name != "remote" {
			rest = append(rest, arg)
			continue
		}
		if !inline {
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("--remote needs a value: --remote=auto, or --remote=off")
			}
			i++
			value = args[i]
		}
		mode = &value
	}
	return rest, mode, nil
}

// setRemoteMode sets remoteMode for the command sub from --remote (flag,
// when given) or else STRUCTLS_REMOTE.
func setRemoteMode(sub string, flag *string) error {
	given, mode := flag != nil, os.Getenv("STRUCTLS_REMOTE")
	if given {
		mode = *flag
	}
	switch mode {
	case "", "off":
		return nil
	case "auto":
		if !remoteCommands[sub] {
			if given {
				return fmt.Errorf("--remote is for astgrep, search, xray, edit, scan and outline, not %s", sub)
			}
			return nil // the environment asks it of every command: those without a server run as they are
		}
		remoteMode = "auto"
		return nil
	}
	return fmt.Errorf("--remote=%s (or STRUCTLS_REMOTE): use auto (this user's shared server for the root) or off", mode)
}

// dialRemote connects to the shared server for the root (absolute),
// starting it when none runs.
func dialRemote(ctx context.Context, root string) (net.Conn, error) {
	dir := remote.Dir()
	if err := remote.EnsureDir(dir); err != nil {
		return nil, fmt.Errorf("--remote=auto: %w", err)
	}
	real, err := remote.RealRoot(root)
	if err != nil {
		return nil, fmt.Errorf("--remote=auto: %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--remote=auto: finding the structls executable: %w", err)
	}
	socket := remote.SocketPath(dir, real, buildID(exe))
	if len(socket) > maxSocketPath {
		return nil, fmt.Errorf("--remote=auto: the socket path %s is longer than the %d bytes a Unix socket allows: set XDG_RUNTIME_DIR to a shorter directory", socket, maxSocketPath)
	}
	command := []string{exe, "daemon", "--root", real, "--socket", socket}
	if idle := os.Getenv("STRUCTLS_REMOTE_IDLE"); idle != "" {
		if d, err := time.ParseDuration(idle); err != nil || d <= 0 {
			return nil, fmt.Errorf("--remote=auto: STRUCTLS_REMOTE_IDLE=%q is not a positive duration (10m, 90s): set it to one, or unset it for the default %v", idle, remote.DefaultIdleTimeout)
		}
		command = append(command, "--idle", idle)
	}
	c, err := remote.Dial(ctx, socket, command)
	if err != nil {
		return nil, fmt.Errorf("--remote=auto: %w", err)
	}
	remoteSocket = socket
	watchStopped(c)
	return c, nil
}

// remoteHandshakeTimeout bounds the shared server's answer to initialize,
// which it gives at once unless it is stopped or hung.
const remoteHandshakeTimeout = 15 * time.Second

// stoppedFor is how long the shared server may be stopped (SIGSTOP, a
// debugger, ^Z) before the command gives up on it.
const stoppedFor = 5 * time.Second

// remotePid is the shared server's process id once connected (0: unknown).
var remotePid int

// remoteStopped is set, before the connection is closed, when the shared
// server stayed stopped through stoppedFor, for remoteLost.
var remoteStopped atomic.Pointer[string]

// watchStopped watches the process at the other end of the connection
// (SO_PEERCRED) while the command runs, and closes the connection when it
// has been stopped for stoppedFor: a command must not wait forever on a
// server that cannot answer. A server that is merely slow runs on.
func watchStopped(c net.Conn) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return
	}
	var cred *unix.Ucred
	_ = raw.Control(func(fd uintptr) { cred, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) })
	if err != nil || cred == nil || cred.Pid <= 0 {
		return
	}
	pid := int(cred.Pid)
	remotePid = pid
	go func() {
		var since time.Time
		for range time.Tick(time.Second) {
			if !processStopped(pid) {
				since = time.Time{}
				continue
			}
			if since.IsZero() {
				since = time.Now()
			} else if time.Since(since) >= stoppedFor {
				msg := fmt.Sprintf("--remote=auto: the shared server (pid %d, %s) has been stopped for %v (SIGSTOP, a debugger): resume it (kill -CONT %d) or kill it (a new one starts), or run without --remote", pid, remoteSocket, stoppedFor, pid)
				remoteStopped.Store(&msg)
				c.Close()
				return
			}
		}
	}()
}

// processStopped reports whether the process pid is stopped (state T or t
// in /proc/PID/stat); false when that cannot be read.
func processStopped(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	end := bytes.LastIndexByte(stat, ')') // the name, in parentheses, may hold anything
	if end < 0 || end+2 >= len(stat) {
		return false
	}
	return stat[end+2] == 'T' || stat[end+2] == 't'
}

// remoteSocket is the shared server's socket once the command is connected
// to it, for remoteLost.
var remoteSocket string

// remoteLost says what happened when the connection to the shared server
// broke during the command (it crashed, or was killed), and what to do:
// jsonrpc2 reports a bare EOF or connection reset.
func remoteLost(err error) error {
	if msg := remoteStopped.Load(); msg != nil {
		return errors.New(*msg)
	}
	if remoteSocket == "" || !(errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed)) {
		return err
	}
	return fmt.Errorf("--remote=auto: the shared server closed the connection during the command (%w): it ended, crashed or was killed (its log: %s.log); what was printed is incomplete. Run the command again (a new server starts), or without --remote", err, remoteSocket)
}

// maxSocketPath is the longest socket path every Unix takes (sun_path
// holds 104 bytes on macOS, 108 on Linux, the terminating NUL included).
const maxSocketPath = 103

// buildID names this structls build: its version and its executable (path,
// size, modification time), so a rebuilt binary never talks to the server
// an older one started.
func buildID(exe string) string {
	id := version + "\x00" + exe
	if info, err := os.Stat(exe); err == nil {
		id += fmt.Sprintf("\x00%d\x00%d", info.Size(), info.ModTime().UnixNano())
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:8])
}

// daemonCmd is `structls daemon`, the shared server --remote=auto starts:
// not meant to be run by hand.
func daemonCmd(args []string, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("daemon", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "the workspace root (its real path)")
	socket := fs.String("socket", "", "the Unix socket to listen on")
	idle := fs.Duration("idle", remote.DefaultIdleTimeout, "exit after this long without a connection")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return exitError, err
	}
	if *root == "" || *socket == "" {
		return exitError, fmt.Errorf("daemon needs --root and --socket: it is started by --remote=auto")
	}
	logger, level, closeLog, err := newLogger(*socket+".log", *logLevel, stderr)
	if err != nil {
		return exitError, err
	}
	defer closeLog()
	err = remote.Serve(context.Background(), remote.DaemonOptions{Root: *root, Socket: *socket, Idle: *idle,
		// Its clients are this user's command lines (the socket admits no one else): -c may be anywhere.
		Server: lsp.Options{Logger: logger, Level: &level, Version: version, ConfigAnywhere: true},
		Ready: func() {
			logger.Sugar().Infof("shared server pid %d listening on %s for %s (idle timeout %v)", os.Getpid(), *socket, *root, *idle)
		}})
	if err != nil {
		logger.Sugar().Errorf("shared server: %v", err)
		return exitError, err
	}
	logger.Sugar().Infof("shared server pid %d exits: idle for %v", os.Getpid(), *idle)
	return exitFound, nil
}
