package workspace

import (
	"sort"
	"unicode/utf8"
)

// Column checkpoints make offset → position conversion cheap on long lines.
// Counting a column from the start of its line costs the line's length, and
// a search with tens of thousands of matches on one multi-megabyte line would
// pay it for each: quadratic. A long line instead gets, on first use, one
// forward pass that records every checkpointSpacing bytes how many UTF-16 and
// UTF-32 units precede that point; a column is then counted from the nearest
// checkpoint before its offset.
const (
	// checkpointFrom is the distance from its line start at which a column
	// is counted from a checkpoint rather than from the line start.
	checkpointFrom = 4 << 10
	// checkpointSpacing is the byte distance between checkpoints.
	checkpointSpacing = 512
)

// columnCheckpoint is a character boundary on a long line and the columns,
// in each counted encoding, between the line start and it.
type columnCheckpoint struct {
	off          int // byte offset in the text
	utf16, utf32 int
}

// units returns the checkpoint's column in enc (UTF-16 or UTF-32).
func (c columnCheckpoint) units(enc Encoding) int {
	if enc == UTF32 {
		return c.utf32
	}
	return c.utf16
}

// column returns the column of byte offset off on zero-based line in enc.
// It equals the count from the line start: checkpoints sit on the character
// boundaries that counting from the line start passes through.
func (m *Mapper) column(line, off int, enc Encoding) int {
	start, end := m.lines()[line], m.lineLimit(line)
	if enc == UTF8 {
		return off - start
	}
	if off-start >= checkpointFrom {
		cps := m.lineCheckpoints(line)
		if i := sort.Search(len(cps), func(i int) bool { return cps[i].off > off }) - 1; i >= 0 {
			return cps[i].units(enc) + columnUnits(m.content[cps[i].off:end], off-cps[i].off, enc)
		}
	}
	return columnUnits(m.content[start:end], off-start, enc)
}

// lineLimit returns the offset of the "\n" ending line, or the text's end:
// no character runs across it.
func (m *Mapper) lineLimit(line int) int {
	if starts := m.lines(); line+1 < len(starts) {
		return starts[line+1] - 1
	}
	return len(m.content)
}

// lineCheckpoints returns the checkpoints of a line, built on first use in
// one forward pass over the line.
func (m *Mapper) lineCheckpoints(line int) []columnCheckpoint {
	m.checkpointsMu.Lock()
	defer m.checkpointsMu.Unlock()
	if cps, ok := m.checkpoints[line]; ok {
		return cps
	}
	if m.checkpoints == nil {
		m.checkpoints = map[int][]columnCheckpoint{}
	}
	start, end := m.lines()[line], m.lineLimit(line)
	var cps []columnCheckpoint
	utf16, utf32 := 0, 0
	next := start + checkpointSpacing
	for off := start; off < end; {
		if off >= next {
			cps = append(cps, columnCheckpoint{off: off, utf16: utf16, utf32: utf32})
			next = off + checkpointSpacing
		}
		r, size := utf8.DecodeRune(m.content[off:end])
		utf16 += runeUnits(r, size, UTF16)
		utf32 += runeUnits(r, size, UTF32)
		off += size
	}
	m.checkpoints[line] = cps
	return cps
}
