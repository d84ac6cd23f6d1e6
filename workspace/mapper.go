// Package workspace is the server's view of the user's files: the folders
// it may read, the editor's unsaved buffers laid over the disk (the overlay),
// immutable snapshots of both, path resolution with confinement, gitignore-aware
// walking, and the mapping between byte offsets and LSP positions.
//
// Nothing here knows about the wire protocol: positions and ranges are plain
// structs whose JSON shape happens to match LSP's.
package workspace

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"unicode/utf8"
)

// Encoding is the unit in which a Position's Character counts columns,
// as negotiated with the client (LSP positionEncoding).
type Encoding int

const (
	// UTF16 counts UTF-16 code units: the LSP default, and all VS Code speaks.
	UTF16 Encoding = iota
	// UTF8 counts bytes.
	UTF8
	// UTF32 counts Unicode code points.
	UTF32
)

// String returns the LSP name of the encoding ("utf-16", "utf-8", "utf-32").
func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "utf-8"
	case UTF32:
		return "utf-32"
	default:
		return "utf-16"
	}
}

// Position is a zero-based line and column; the column unit is an Encoding.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a half-open span between two Positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// ByteRange is a half-open span of UTF-8 byte offsets into a file.
type ByteRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Mapper converts between byte offsets and Positions for one immutable text.
//
// Lines end at "\n"; a "\r" before it belongs to the line terminator, so a
// CRLF file and its LF twin have the same positions. A lone "\r" is not a line
// break (as in ripgrep and gopls). Each byte of invalid UTF-8 counts as one
// unit in every encoding, the way decoders substitute U+FFFD for it. A UTF-8
// byte order mark at the start of the text is not part of the first line:
// editors drop it from their buffers (VS Code, Neovim, Emacs), so columns
// there count from after it, as they do, and an offset inside it is 0:0.
//
// The line table is built lazily, once. Columns are counted from the start
// of their line, except on long lines (minified code, one-line data files),
// which get column checkpoints on first use so that a position costs a
// bounded count however long its line is. A Mapper is safe for concurrent use.
type Mapper struct {
	content    []byte
	once       sync.Once
	lineStarts []int

	checkpointsMu sync.Mutex
	checkpoints   map[int][]columnCheckpoint // by zero-based line, for long lines only
}

// NewMapper returns a Mapper over content, which must not be modified afterwards.
func NewMapper(content []byte) *Mapper {
	return &Mapper{content: content}
}

// Reset makes m a Mapper over content, reusing the memory of its line
// table: for a worker that maps one file after another. Only for a Mapper
// no other goroutine is using.
func (m *Mapper) Reset(content []byte) {
	*m = Mapper{content: content, lineStarts: m.lineStarts[:0]}
}

func (m *Mapper) lines() []int {
	m.once.Do(func() {
		// Counting the lines first (a fast scan) sizes the table once:
		// growing it by appends cost more than the scan for the lines,
		// mostly in faults on the fresh memory of each larger copy.
		if n := bytes.Count(m.content, []byte("\n")) + 1; cap(m.lineStarts) < n {
			m.lineStarts = make([]int, 0, n)
		}
		starts := append(m.lineStarts[:0], 0)
		if bytes.HasPrefix(m.content, utf8BOM) {
			starts[0] = len(utf8BOM)
		}
		for off := 0; ; {
			i := bytes.IndexByte(m.content[off:], '\n')
			if i < 0 {
				break
			}
			off += i + 1
			starts = append(starts, off)
		}
		m.lineStarts = starts
	})
	return m.lineStarts
}

// LineCount returns the number of lines; a text ending in "\n" has an empty last line.
func (m *Mapper) LineCount() int { return len(m.lines()) }

// utf8BOM is the byte order mark some tools write at the start of a UTF-8 file.
var utf8BOM = []byte("\xef\xbb\xbf")

// Line returns the zero-based line holding byte offset off (an offset
// inside a leading byte order mark is on line 0).
func (m *Mapper) Line(off int) int {
	starts := m.lines()
	return max(0, sort.Search(len(starts), func(i int) bool { return starts[i] > off })-1)
}

// LineStart returns the byte offset at which zero-based line begins.
func (m *Mapper) LineStart(line int) int { return m.lines()[line] }

// LineEnd returns the offset where line's content ends, before its "\n" or "\r\n".
func (m *Mapper) LineEnd(line int) int {
	starts := m.lines()
	if line+1 >= len(starts) {
		return len(m.content)
	}
	end := starts[line+1] - 1
	if end > starts[line] && m.content[end-1] == '\r' {
		end--
	}
	return end
}

// OffsetPosition returns the Position of byte offset off in the given encoding.
// In UTF-16 and UTF-32, an offset inside a multi-byte character maps to that
// character's start.
func (m *Mapper) OffsetPosition(off int, enc Encoding) (Position, error) {
	if off < 0 || off > len(m.content) {
		return Position{}, fmt.Errorf("offset %d is outside the text (length %d)", off, len(m.content))
	}
	line := m.Line(off)
	return Position{Line: line, Character: m.column(line, max(off, m.lines()[0]), enc)}, nil
}

// OffsetRange returns the Range of the byte span [start, end).
func (m *Mapper) OffsetRange(start, end int, enc Encoding) (Range, error) {
	s, err := m.OffsetPosition(start, enc)
	if err != nil {
		return Range{}, err
	}
	e, err := m.OffsetPosition(end, enc)
	if err != nil {
		return Range{}, err
	}
	return Range{Start: s, End: e}, nil
}

// PositionOffset returns the byte offset of p. As the LSP specification asks,
// a column past the end of its line means the end of that line; a line past
// the end of the text means the end of the text. A column inside a character
// (half a surrogate pair) rounds down to the character's start.
func (m *Mapper) PositionOffset(p Position, enc Encoding) (int, error) {
	if p.Line < 0 || p.Character < 0 {
		return 0, fmt.Errorf("position %d:%d is negative", p.Line, p.Character)
	}
	starts := m.lines()
	if p.Line >= len(starts) {
		return len(m.content), nil
	}
	off, end := starts[p.Line], m.LineEnd(p.Line)
	for units := 0; off < end; {
		r, size := utf8.DecodeRune(m.content[off:end])
		u := runeUnits(r, size, enc)
		if units+u > p.Character {
			break
		}
		units += u
		off += size
	}
	return off, nil
}

// columnUnits counts, in the encoding, the characters of line (decoded as a
// whole) that end at or before byte n: a character that n cuts is not counted.
func columnUnits(line []byte, n int, enc Encoding) int {
	if enc == UTF8 {
		return n
	}
	units := 0
	for i := 0; i < n; {
		r, size := utf8.DecodeRune(line[i:])
		if i+size > n {
			break
		}
		units += runeUnits(r, size, enc)
		i += size
	}
	return units
}

// runeUnits is the width of one decoded rune (size bytes) in the encoding.
func runeUnits(r rune, size int, enc Encoding) int {
	switch {
	case enc == UTF8:
		return size
	case enc == UTF16 && r >= 0x10000:
		return 2
	default:
		return 1
	}
}
