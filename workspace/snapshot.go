package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
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
// text when the file is open in the editor, otherwise the bytes on disk.
// Symlinks are never followed (the walk confined every path already), files
// over the size limit give ErrTooLarge and files holding a NUL byte ErrBinary.
func (s *Snapshot) ReadFile(f File) ([]byte, error) {
	if f.Doc != nil {
		return f.Doc.Content, nil
	}
	fd, err := os.OpenFile(f.Abs, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	info, err := fd.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", f.Rel)
	}
	if info.Size() > s.Settings.EffectiveMaxFileSize() {
		return nil, fmt.Errorf("%s (%d bytes): %w", f.Rel, info.Size(), ErrTooLarge)
	}
	content := make([]byte, info.Size())
	n, err := io.ReadFull(fd, content)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	content = content[:n]
	if bytes.IndexByte(content, 0) >= 0 {
		return nil, ErrBinary
	}
	return content, nil
}
