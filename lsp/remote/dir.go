// Package remote lets the CLI reach a warm, shared structls server: one
// per user, workspace root and structls build, listening on a Unix socket
// in a private directory and ended by an idle timeout (docs/cli.md, "--remote=auto":
// --remote=auto). The CLI drives it with the very client.Editor (lsp/client)
// it drives an in-process server with; the daemon routes each CLI connection's requests
// to one long-lived server (router.go), so every connection sees the same
// warm parse cache and none sees another's state.
package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Dir returns the private directory of this user's sockets:
// $XDG_RUNTIME_DIR/structls when XDG_RUNTIME_DIR is set, else
// os.TempDir()/structls-UID.
func Dir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "structls")
	}
	return filepath.Join(os.TempDir(), "structls-"+strconv.Itoa(os.Getuid()))
}

// EnsureDir creates dir (mode 0700) when it does not exist, and checks
// that it is a directory, not a symbolic link, owned by this user, with
// mode 0700: anyone else who could write in it could put a socket of their
// own where the CLI looks for its server, and read what it sends.
func EnsureDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("creating the shared server's directory: %w", err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("checking the shared server's directory: %w", err)
	}
	if err := ownedPrivately(info, fs.ModeDir, 0o700); err != nil {
		return fmt.Errorf("%s is not a private directory of this user (%w): remove it, or set XDG_RUNTIME_DIR to one", dir, err)
	}
	return nil
}

// checkSocket checks that the file at path is a socket owned by this user
// and not open to others, so a socket someone else placed is never used.
func checkSocket(path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if err := ownedPrivately(info, fs.ModeSocket, 0o600); err != nil {
		return fmt.Errorf("%s is not this user's structls socket (%w): remove it", path, err)
	}
	return nil
}

// ownedPrivately checks a file's type, its owner (this user) and that its
// permissions grant nothing beyond perm.
func ownedPrivately(info fs.FileInfo, kind fs.FileMode, perm fs.FileMode) error {
	if info.Mode().Type() != kind {
		return fmt.Errorf("it is a %v, not a %v", typeName(info.Mode().Type()), typeName(kind))
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return errors.New("its owner cannot be read")
	}
	if int(st.Uid) != os.Getuid() {
		return fmt.Errorf("it is owned by uid %d, not %d", st.Uid, os.Getuid())
	}
	if got := info.Mode().Perm(); kind == fs.ModeDir && got != perm || got&^perm != 0 {
		return fmt.Errorf("its mode is %#o, not %#o", got, perm)
	}
	return nil
}

func typeName(t fs.FileMode) string {
	switch t {
	case fs.ModeDir:
		return "directory"
	case fs.ModeSocket:
		return "socket"
	case fs.ModeSymlink:
		return "symbolic link"
	case fs.ModeNamedPipe:
		return "named pipe (FIFO)"
	case fs.ModeDevice, fs.ModeDevice | fs.ModeCharDevice:
		return "device"
	case 0:
		return "regular file"
	}
	return "file of mode " + t.String()
}

// SocketPath is the socket of the shared server for a workspace root (its
// real path: the same folder reached through a link shares the server) and
// a structls build: a server of another build is never used, as it may
// answer differently.
func SocketPath(dir, realRoot, build string) string {
	sum := sha256.Sum256([]byte(build + "\x00" + realRoot))
	return filepath.Join(dir, "s-"+hex.EncodeToString(sum[:10])+".sock")
}

// RealRoot returns the real path of a workspace root: absolute, links
// resolved.
func RealRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
