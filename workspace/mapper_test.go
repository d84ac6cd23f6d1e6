package workspace

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMapperPositions(t *testing.T) {
	text := "café 😀 x\r\nnext é😀target\r\nlast\xffline"
	m := NewMapper([]byte(text))
	tests := []struct {
		name   string
		offset int
		enc    Encoding
		want   Position
	}{
		{"start", 0, UTF16, Position{0, 0}},
		{"after é utf-16", 5, UTF16, Position{0, 4}},
		{"after é utf-8", 5, UTF8, Position{0, 5}},
		{"after 😀 utf-16", 10, UTF16, Position{0, 7}},
		{"after 😀 utf-32", 10, UTF32, Position{0, 6}},
		{"after 😀 utf-8", 10, UTF8, Position{0, 10}},
		{"CR belongs to line 0", 12, UTF16, Position{0, 9}},
		{"line 1 start", 14, UTF16, Position{1, 0}},
		{"target utf-16", 14 + len("next é😀"), UTF16, Position{1, 8}},
		{"target utf-8", 14 + len("next é😀"), UTF8, Position{1, 11}},
		{"target utf-32", 14 + len("next é😀"), UTF32, Position{1, 7}},
		{"invalid byte is one unit", len(text) - 4, UTF16, Position{2, 5}},
		{"end of text, no final newline", len(text), UTF16, Position{2, 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := m.OffsetPosition(tt.offset, tt.enc)
			if err != nil || got != tt.want {
				t.Fatalf("OffsetPosition(%d, %v) = %v, %v; want %v", tt.offset, tt.enc, got, err, tt.want)
			}
			back, err := m.PositionOffset(got, tt.enc)
			if err != nil || back != tt.offset {
				t.Fatalf("PositionOffset(%v, %v) = %d, %v; want %d", got, tt.enc, back, err, tt.offset)
			}
		})
	}
}

// TestOffsetInsideCharacter: in UTF-16 and UTF-32 an offset inside a
// multi-byte character maps to the character's start (never past it).
func TestOffsetInsideCharacter(t *testing.T) {
	m := NewMapper([]byte("a😀b é"))
	for _, tt := range []struct {
		offset int
		enc    Encoding
		want   int
	}{
		{1, UTF16, 1}, {2, UTF16, 1}, {3, UTF16, 1}, {4, UTF16, 1}, {5, UTF16, 3},
		{2, UTF32, 1}, {4, UTF32, 1}, {5, UTF32, 2}, {8, UTF16, 5}, {8, UTF32, 4},
		{2, UTF8, 2},
	} {
		if got, err := m.OffsetPosition(tt.offset, tt.enc); err != nil || got.Character != tt.want {
			t.Errorf("OffsetPosition(%d, %v) = %v, %v; want column %d", tt.offset, tt.enc, got, err, tt.want)
		}
	}
}

func TestPositionOffsetClamps(t *testing.T) {
	m := NewMapper([]byte("ab\r\n😀c"))
	tests := []struct {
		p    Position
		enc  Encoding
		want int
	}{
		{Position{0, 99}, UTF16, 2}, // past the line end: the end, before CRLF
		{Position{1, 1}, UTF16, 4},  // inside a surrogate pair: the character's start
		{Position{1, 2}, UTF16, 8},  // after 😀
		{Position{9, 0}, UTF16, 9},  // past the last line: the end of the text
		{Position{1, 3}, UTF8, 4},   // inside a UTF-8 sequence: its start
		{Position{1, 1}, UTF32, 8},  // after 😀
	}
	for _, tt := range tests {
		got, err := m.PositionOffset(tt.p, tt.enc)
		if err != nil || got != tt.want {
			t.Errorf("PositionOffset(%v, %v) = %d, %v; want %d", tt.p, tt.enc, got, err, tt.want)
		}
	}
	if _, err := m.PositionOffset(Position{-1, 0}, UTF16); err == nil {
		t.Error("negative position: want an error")
	}
	if _, err := m.OffsetPosition(99, UTF16); err == nil {
		t.Error("offset past the end: want an error")
	}
}

// FuzzMapper checks that every character boundary survives a round trip
// through positions in every encoding, whatever the bytes.
func FuzzMapper(f *testing.F) {
	for _, s := range []string{"", "a\nb", "é😀\r\n\r\nx", "\xff\xfe\n\xc3", "\r\r\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m := NewMapper([]byte(text))
		var boundaries []int
		for off := 0; off < len(text); {
			boundaries = append(boundaries, off)
			_, size := utf8.DecodeRuneInString(text[off:])
			off += size
		}
		for _, off := range append(boundaries, len(text)) {
			for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
				p, err := m.OffsetPosition(off, enc)
				if err != nil {
					t.Fatal(err)
				}
				back, err := m.PositionOffset(p, enc)
				if err != nil {
					t.Fatal(err)
				}
				// A boundary inside a CRLF maps back to the line end.
				if back != off && !(off > 0 && text[off-1] == '\r') && !(off < len(text) && text[off] == '\n' && off > 0 && text[off-1] == '\r') {
					t.Fatalf("%q offset %d → %v → %d (%v)", text, off, p, back, enc)
				}
			}
		}
	})
}

// TestMapperByteOrderMark: editors drop a UTF-8 byte order mark from their
// buffers, so the first line's columns count from after it, both ways.
func TestMapperByteOrderMark(t *testing.T) {
	m := NewMapper([]byte("\ufeffab😀c\nd\n"))
	for _, tt := range []struct {
		off  int
		enc  Encoding
		want Position
	}{
		{0, UTF16, Position{0, 0}}, // inside the mark
		{2, UTF16, Position{0, 0}},
		{3, UTF16, Position{0, 0}}, // "a"
		{5, UTF16, Position{0, 2}}, // "😀"
		{9, UTF16, Position{0, 4}}, // "c"
		{9, UTF8, Position{0, 6}},
		{11, UTF16, Position{1, 0}},
	} {
		got, err := m.OffsetPosition(tt.off, tt.enc)
		if err != nil || got != tt.want {
			t.Errorf("OffsetPosition(%d, %v) = %v, %v; want %v", tt.off, tt.enc, got, err, tt.want)
		}
		if tt.off < 3 {
			continue
		}
		if back, err := m.PositionOffset(tt.want, tt.enc); err != nil || back != tt.off {
			t.Errorf("PositionOffset(%v, %v) = %d, %v; want %d", tt.want, tt.enc, back, err, tt.off)
		}
	}
	if got := m.LineStart(0); got != 3 {
		t.Errorf("LineStart(0) = %d; want 3, after the mark", got)
	}
}

// TestMapperReset: a Mapper reset over another text maps every offset as a
// fresh Mapper over that text does, whether the table it reuses was longer
// or shorter, and whatever its BOM.
func TestMapperReset(t *testing.T) {
	texts := []string{
		"a\nbb\nccc\ndddd\neeeee\n",
		"\xef\xbb\xbfx😀\r\ny",
		"one line, no newline",
		"",
		"é\n\n\n😀\nlong\n" + string(make([]byte, 3000)) + "\nend",
	}
	var reused Mapper
	for _, text := range texts {
		reused.Reset([]byte(text))
		fresh := NewMapper([]byte(text))
		for off := 0; off <= len(text); off++ {
			for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
				got, gotErr := reused.OffsetPosition(off, enc)
				want, wantErr := fresh.OffsetPosition(off, enc)
				if got != want || (gotErr == nil) != (wantErr == nil) {
					t.Fatalf("text %q offset %d %v: reset Mapper gives %v, %v; a fresh one %v, %v", text, off, enc, got, gotErr, want, wantErr)
				}
			}
		}
		if reused.LineCount() != fresh.LineCount() {
			t.Fatalf("text %q: reset Mapper counts %d lines, a fresh one %d", text, reused.LineCount(), fresh.LineCount())
		}
	}
}

// TestMapperLineTableOneAllocation: the line table of a long text is
// allocated once at its final size (growing it by appends copied it a dozen
// times), and a Mapper reset over a text of no more lines allocates none.
func TestMapperLineTableOneAllocation(t *testing.T) {
	text := []byte(strings.Repeat("a line of text\n", 100_000))
	if n := testing.AllocsPerRun(10, func() { NewMapper(text).LineCount() }); n > 2 {
		t.Errorf("a fresh Mapper made %v allocations for its line table; want the Mapper and one table", n)
	}
	var m Mapper
	m.Reset(text)
	m.LineCount()
	if n := testing.AllocsPerRun(10, func() { m.Reset(text[:len(text)/2]); m.LineCount() }); n > 0 {
		t.Errorf("a reset Mapper made %v allocations; want none", n)
	}
}
