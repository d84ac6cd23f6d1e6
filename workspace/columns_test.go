package workspace

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"
	"unicode/utf8"
)

// naivePosition is the definition column checkpoints must agree with: the
// line found by scanning for "\n", the column counted from the line start
// over the characters (decoding the whole line) that end at or before off.
func naivePosition(content []byte, off int, enc Encoding) Position {
	lineStart := bytes.LastIndexByte(content[:off], '\n') + 1
	lineEnd := len(content)
	if i := bytes.IndexByte(content[off:], '\n'); i >= 0 {
		lineEnd = off + i
	}
	column := off - lineStart
	if enc != UTF8 {
		column = 0
		line := string(content[lineStart:lineEnd])
		for i, r := range line { // invalid bytes decode one at a time, as U+FFFD
			size := len(string(r))
			if r == utf8.RuneError {
				_, size = utf8.DecodeRuneInString(line[i:])
			}
			if lineStart+i+size > off {
				break
			}
			column++
			if enc == UTF16 && r >= 0x10000 {
				column++
			}
		}
	}
	return Position{Line: bytes.Count(content[:off], []byte("\n")), Character: column}
}

// randomText builds lines of random length, some far longer than
// checkpointFrom, from ASCII, 2-, 3- and 4-byte characters, CRs, lone
// continuation bytes and truncated sequences.
func randomText(r *rand.Rand) []byte {
	pieces := []string{"a", "b", " ", "é", "中", "😀", "🎉", "\r", "\xff", "\x80", "\xf0\x9f", "\xe4\xb8"}
	var b bytes.Buffer
	for range 1 + r.IntN(4) {
		n := r.IntN(6 * checkpointFrom)
		if r.IntN(3) == 0 {
			n = r.IntN(50)
		}
		for ; n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		b.WriteByte('\n')
	}
	if r.IntN(2) == 0 {
		b.Truncate(b.Len() - 1) // no final newline
	}
	return b.Bytes()
}

// TestMapperCheckpointsMatchNaiveCount is a property test: on random text
// with long lines, astral and invalid characters, OffsetPosition at random
// offsets (also inside characters) equals the count from the line start.
func TestMapperCheckpointsMatchNaiveCount(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	longLines := 0
	for range 25 {
		content := randomText(r)
		m := NewMapper(content)
		for range 100 {
			off := r.IntN(len(content) + 1)
			for _, enc := range []Encoding{UTF16, UTF32, UTF8} {
				got, err := m.OffsetPosition(off, enc)
				if want := naivePosition(content, off, enc); err != nil || got != want {
					t.Fatalf("OffsetPosition(%d, %v) = %v, %v; want %v (text of %d bytes)", off, enc, got, err, want, len(content))
				}
			}
		}
		longLines += len(m.checkpoints)
	}
	if longLines == 0 {
		t.Fatal("no line used checkpoints: the test does not exercise them")
	}
}

// TestMapperCheckpointsConcurrent converts positions on one long line from
// several goroutines at once (run with -race).
func TestMapperCheckpointsConcurrent(t *testing.T) {
	content := bytes.Repeat([]byte("é😀x"), 20*checkpointFrom)
	m := NewMapper(content)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for off := g; off < len(content); off += 9973 {
				got, _ := m.OffsetPosition(off, UTF16)
				if want := naivePosition(content, off, UTF16); got != want {
					t.Errorf("OffsetPosition(%d) = %v; want %v", off, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}
