package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
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
	// or "multiFile" (the default, also when ""): edits that span several files.
	ConfirmEdits string `json:"confirmEdits,omitempty"`
	// BackgroundParse says whether the server parses the workspace's files
	// into the parse cache in the background; nil means the default, on.
	BackgroundParse *bool `json:"backgroundParse,omitempty"`
}

// BackgroundParseEnabled reports whether background parsing is on.
func (s Settings) BackgroundParseEnabled() bool {
	return s.BackgroundParse == nil || *s.BackgroundParse
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
	// roots holds the open handles on the folders' roots, through which
	// every file is read (see confined.go).
	roots *folderRoots
}

// NewSnapshot builds a snapshot from folders, settings and the open documents.
func NewSnapshot(folders []Folder, settings Settings, docs map[string]*Document) *Snapshot {
	byPath := make(map[string]*Document, len(docs))
	for _, d := range docs {
		if d.Path != "" {
			byPath[d.Path] = d
		}
	}
	return &Snapshot{Folders: folders, Settings: settings, docs: byPath, roots: &folderRoots{open: map[int]*folderRoot{}}}
}

// folderRoots are the root handles of a snapshot's folders, each opened on
// first use and kept for the snapshot's life: opening a root costs as much as
// opening the file below it. A handle is closed when nothing refers to it
// any more (a snapshot has no end of life of its own; see folderRoot).
type folderRoots struct {
	mu   sync.Mutex
	open map[int]*folderRoot
}

// root returns the open handle on the root of folder i.
func (s *Snapshot) root(i int) (*folderRoot, error) {
	s.roots.mu.Lock()
	defer s.roots.mu.Unlock()
	if r := s.roots.open[i]; r != nil {
		return r, nil
	}
	r, err := openFolderRoot(s.Folders[i].Real)
	if err != nil {
		return nil, err
	}
	s.roots.open[i] = r
	return r, nil
}

// Document returns the open document for the absolute path, or nil.
func (s *Snapshot) Document(path string) *Document { return s.docs[path] }

// ErrTooLarge marks a file skipped because it exceeds Settings.MaxFileSize.
var ErrTooLarge = errors.New("file is larger than maxFileSize")

// ErrBinary marks a file skipped because it holds a NUL byte.
var ErrBinary = errors.New("binary file")

// ReadFile returns the text of a file found by Walk: the open document's
// text when the file is open in the editor, otherwise the bytes on disk,
// read into buf (reused across calls; the result aliases it). The file is
// opened below its folder's root without following a symlink at any
// component (see confined.go); files over the size limit (open documents
// too) give ErrTooLarge, and files holding a NUL byte ErrBinary.
func (s *Snapshot) ReadFile(f File, buf []byte) ([]byte, error) {
	content, _, err := s.ReadFileStamp(f, buf)
	return content, err
}

// ReadFileStamp is ReadFile that also returns the stamp the file on disk
// had when it was opened (the zero stamp for an open document). The bytes
// are read after the stamp is taken, so they are never older than it: a
// write in between leaves newer times on the file than the stamp's.
func (s *Snapshot) ReadFileStamp(f File, buf []byte) ([]byte, FileStamp, error) {
	limit := s.Settings.EffectiveMaxFileSize()
	if f.Doc != nil {
		if size := int64(len(f.Doc.Content)); size > limit {
			return nil, FileStamp{}, fmt.Errorf("%s (an unsaved buffer of %d bytes): %w", f.Rel, size, ErrTooLarge)
		}
		return f.Doc.Content, FileStamp{}, nil
	}
	root, err := s.root(f.Folder)
	if err != nil {
		return nil, FileStamp{}, err
	}
	// System calls, not an os.File, which would register every file with
	// the poller; raw ones on a local disk (fastcalls_linux.go).
	fast := f.onLocalDisk
	fd, err := root.open(f.Rel, syscall.O_RDONLY|syscall.O_NONBLOCK, fast)
	if err != nil {
		return nil, FileStamp{}, &os.PathError{Op: "open", Path: f.Rel, Err: err}
	}
	defer closeFD(fd, fast)
	return readRegular(fd, f.Rel, limit, buf, fast)
}

// firstReadSize bounds the buffer allocated before a file's bytes arrive,
// whatever size the file claims: a sparse file of 20 GB claims it all, and is
// known to be binary after its first block of zeros.
const firstReadSize = 16 << 20

// readRegular reads the open file fd (named name in messages) into buf: it
// must be a regular file of at most limit bytes without a NUL byte. It never
// reads more than limit+1 bytes (the one past the limit tells a file grown
// while being read), and stops at the first block holding a NUL byte. It
// returns the stamp fd had before the first read. Its system calls are raw
// when fast (fastcalls_linux.go).
func readRegular(fd int, name string, limit int64, buf []byte, fast bool) ([]byte, FileStamp, error) {
	var st unix.Stat_t
	if err := fstatFD(fd, &st, fast); err != nil {
		return nil, FileStamp{}, &os.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, FileStamp{}, fmt.Errorf("%s is not a regular file", name)
	}
	if st.Size > limit {
		return nil, FileStamp{}, fmt.Errorf("%s (%d bytes): %w", name, st.Size, ErrTooLarge)
	}
	stamp := stampOf(&st)
	maxRead := int(min(limit, math.MaxInt-1)) + 1
	content := buf[:0]
	if first := min(int(st.Size)+1, firstReadSize, maxRead); cap(content) < first {
		content = make([]byte, 0, first)
	}
	for {
		if len(content) == cap(content) { // more than the size stat reported: the file grew
			grown := make([]byte, len(content), min(2*cap(content), maxRead))
			copy(grown, content)
			content = grown
		}
		if testHookBeforeRead != nil {
			testHookBeforeRead()
		}
		room := content[len(content):min(cap(content), maxRead)]
		n, err := readFD(fd, room, fast)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, FileStamp{}, &os.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			return content, stamp, nil
		}
		if bytes.IndexByte(room[:n], 0) >= 0 {
			return nil, FileStamp{}, ErrBinary
		}
		content = content[:len(content)+n]
		if len(content) == maxRead {
			return nil, FileStamp{}, fmt.Errorf("%s (grew past %d bytes while being read): %w", name, limit, ErrTooLarge)
		}
		if int64(len(content)) == st.Size && n < len(room) {
			// The file holds the bytes its stat announced, and the read
			// stopped short of the room it had: at the end. A read to see
			// 0 would cost one more system call a file (a fifth of them);
			// bytes appended since the stat are newer than the stamp.
			return content, stamp, nil
		}
	}
}

// testHookBeforeRead, when set by a test, runs before each read of a file's
// bytes, after its size was checked: the window in which a file may grow.
var testHookBeforeRead func()
