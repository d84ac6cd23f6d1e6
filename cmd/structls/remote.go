package main

import (
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
	"syscall"
	"time"

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
	return c, nil
}

// remoteSocket is the shared server's socket once the command is connected
// to it, for remoteLost.
var remoteSocket string

// remoteLost says what happened when the connection to the shared server
// broke during the command (it crashed, or was killed), and what to do:
// jsonrpc2 reports a bare EOF or connection reset.
func remoteLost(err error) error {
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
