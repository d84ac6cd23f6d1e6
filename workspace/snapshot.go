package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"syscall"
)

// Settings are the user's configuration that shapes what the server reads.
type Settings struct {
	// MaxFileSize is the largest file, in bytes, that searches read; larger
	// files are skipped and reported in warnings. 0 means the default.
	MaxFileSize int64 `json:"maxFileSize,omitempty"`
	// Exclude holds globs (relative to a workspace folder) never searched.
	Exclude []string `json:"exclude,omitempty"`
	// LogLevel is the server log threshold: debug, info, warn or error.
	LogLevel string `json:"logLevel,omitempty"`
	// ParseCacheMB is the memory, in MiB, the server may keep parsed trees
	// in for later queries; nil means the default, 0 turns the cache off.
	ParseCacheMB *int `json:"parseCacheMB,omitempty"`
	// ConfirmEdits says when an applied rewrite asks the editor to confirm
	// it (a change annotation with needsConfirmation): "always", "never",
	// or "" (the default) for edits that span several files.
	ConfirmEdits string `json:"confirmEdits,omitempty"`
}

// DefaultParseCacheMB is the parse cache budget when none is configured.
const DefaultParseCacheMB = 2048

// EffectiveParseCacheBytes returns the parse cache budget in bytes.
func (s Settings) EffectiveParseCacheBytes() int64 {
	if s.ParseCacheMB == nil {
		return DefaultParseCacheMB << 20
	}
	return int64(*s.ParseCacheMB) << 20
}

// DefaultMaxFileSize is the file size limit when none is configured (4 MiB,
// as in the seed search tool: larger files are almost always generated).
const DefaultMaxFileSize = 4 << 20

// EffectiveMaxFileSize returns MaxFileSize or its default.
func (s Settings) EffectiveMaxFileSize() int64 {
	if s.MaxFileSize > 0 {
		return s.MaxFileSize
	}
	return DefaultMaxFileSize
}

// Snapshot is an immutable view of the workspace at one moment: the folders,
// the settings and the open documents. Files that are open are read from
// their document; all others from disk when first asked for.
type Snapshot struct {
	Folders  []Folder
	Settings Settings
	// docs maps the clean absolute path of every open file:// document to it.
	docs map[string]*Document
}

// NewSnapshot builds a snapshot from folders, settings and the open documents.
func NewSnapshot(folders []Folder, settings Settings, docs map[string]*Document) *Snapshot {
	byPath := make(map[string]*Document, len(docs))
	for _, d := range docs {
		if d.Path != "" {
			byPath[d.Path] = d
		}
	}
	return &Snapshot{Folders: folders, Settings: settings, docs: byPath}
}

// Document returns the open document for the absolute path, or nil.
func (s *Snapshot) Document(path string) *Document { return s.docs[path] }

// ErrTooLarge marks a file skipped because it exceeds Settings.MaxFileSize.
var ErrTooLarge = errors.New("file is larger than maxFileSize")

// ErrBinary marks a file skipped because it holds a NUL byte.
var ErrBinary = errors.New("binary file")

// ReadFile returns the text of a file found by Walk: the open document's
// text when the file is open in the editor, otherwise the bytes on disk,
// read into buf (reused across calls; the result aliases it). Symlinks are
// never followed (the walk confined every path already), files over the size
// limit give ErrTooLarge and files holding a NUL byte ErrBinary.
func (s *Snapshot) ReadFile(f File, buf []byte) ([]byte, error) {
	if f.Doc != nil {
		return f.Doc.Content, nil
	}
	// Raw system calls: os.File would register every file with the poller.
	fd, err := syscall.Open(f.Abs, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: f.Rel, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &os.PathError{Op: "stat", Path: f.Rel, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, fmt.Errorf("%s is not a regular file", f.Rel)
	}
	if st.Size > s.Settings.EffectiveMaxFileSize() {
		return nil, fmt.Errorf("%s (%d bytes): %w", f.Rel, st.Size, ErrTooLarge)
	}
	content := slices.Grow(buf[:0], int(st.Size)+1)[:int(st.Size)+1]
	n := 0
	for n < len(content) {
		m, err := syscall.Read(fd, content[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: f.Rel, Err: err}
		}
		if m == 0 {
			break
		}
		n += m
	}
	if n == len(content) { // the file grew while being read: ask again with more room
		return s.ReadFile(f, slices.Grow(content, len(content)))
	}
	content = content[:n]
	if bytes.IndexByte(content, 0) >= 0 {
		return nil, ErrBinary
	}
	return content, nil
}
