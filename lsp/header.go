package lsp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Reading the header block of the base protocol, bounded and resyncing.
//
// Memory: a header line may hold at most maxHeaderLine bytes and a header
// block maxHeaderBlock; longer input is discarded as it streams in, never
// accumulated, so a line without a newline cannot grow the heap.
//
// Resync: after a malformed header block, and after a body that is not JSON
// (a client that counted characters instead of bytes, for instance), the
// reader carries on from the next "Content-Length:" it finds, wherever it
// is: at a line start, after the tail of a body that was too short, or
// inside a body that was too long (that part is pushed back and read as
// the next frame). Duplicate Content-Length headers reject the frame.

const (
	maxHeaderLine  = 8 << 10  // bytes in one header line
	maxHeaderBlock = 16 << 10 // bytes in one header block
)

// contentLengthMarker starts the header a resync looks for (case-insensitively).
const contentLengthMarker = "content-length:"

// errHeaderLineTooLong reports a header line over maxHeaderLine; the line
// has been discarded.
var errHeaderLineTooLong = errors.New("header line too long")

// readHeader reads one header block and returns the body length and the
// bytes consumed. A non-empty problem means the block was malformed and the
// reader has already skipped to the next frame (or the end of input).
func (s *headerStream) readHeader() (length, consumed int, problem string, err error) {
	length = -1
	duplicate := false
	for {
		line, err := s.readHeaderLine()
		consumed += len(line)
		switch {
		case errors.Is(err, errHeaderLineTooLong):
			return 0, consumed, fmt.Sprintf("a header line is longer than %d bytes", maxHeaderLine), s.skipToMarker()
		case err != nil:
			if err == io.EOF && consumed > 0 {
				err = io.ErrUnexpectedEOF
			}
			return 0, consumed, "", err
		case consumed > maxHeaderBlock:
			return 0, consumed, fmt.Sprintf("the header block is longer than %d bytes", maxHeaderBlock), s.skipToMarker()
		}
		line = strings.TrimRight(line, "\r\n")
		if i := indexFold([]byte(line), contentLengthMarker); i > 0 {
			line = line[i:] // the tail of a body whose Content-Length was too short
		}
		if line == "" {
			switch {
			case duplicate:
				return 0, consumed, "duplicate Content-Length headers", s.skipToMarker()
			case length <= 0:
				return 0, consumed, "each message needs a Content-Length header", nil
			}
			return length, consumed, "", nil
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || !isHeaderName(name) {
			return 0, consumed, fmt.Sprintf("%.40q is not a header line", line), s.skipToMarker()
		}
		if strings.EqualFold(name, "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n <= 0 {
				return 0, consumed, fmt.Sprintf("Content-Length %.20q is not a positive integer", strings.TrimSpace(value)), s.skipToMarker()
			}
			duplicate = duplicate || length != -1
			length = n
		}
	}
}

// readHeaderLine reads one line, newline included. On a line longer than
// maxHeaderLine it returns errHeaderLineTooLong, having kept nothing of the
// line but what a resync may need (see pushBackFrom): memory stays bounded
// by the read buffer.
func (s *headerStream) readHeaderLine() (string, error) {
	var line []byte
	for {
		chunk, err := s.in.ReadSlice('\n')
		full := errors.Is(err, bufio.ErrBufferFull)
		if len(line)+len(chunk) > maxHeaderLine {
			s.pushBackFrom(append(line, chunk...), 1)
			return "", errHeaderLineTooLong
		}
		line = append(line, chunk...)
		if !full {
			return string(line), err
		}
	}
}

// skipToMarker discards input up to the next "Content-Length:" (matched
// case-insensitively, anywhere), which is left unread.
func (s *headerStream) skipToMarker() error {
	n := len(contentLengthMarker)
	for {
		// Peek at least one marker's worth; the buffer fills with whatever is ready.
		if _, err := s.in.Peek(n); err != nil {
			_, _ = s.in.Discard(s.in.Buffered())
			return err
		}
		window, _ := s.in.Peek(s.in.Buffered())
		if i := indexFold(window, contentLengthMarker); i >= 0 {
			_, _ = s.in.Discard(i)
			return nil
		}
		// Keep the last n-1 bytes: a marker may straddle the next read.
		_, _ = s.in.Discard(len(window) - (n - 1))
	}
}

// resyncInside pushes back the part of a rejected body that may start the
// next frame (see pushBackFrom): a body that was too long holds the next
// frame's header.
func (s *headerStream) resyncInside(body []byte) { s.pushBackFrom(body, 0) }

// pushBackFrom pushes back the part of rejected input, from index from on,
// that a resync must still see: from its first "Content-Length:" on, or
// else its last line's last bytes, where a marker may begin that the next
// read completes. (For a rejected header line, from is 1: the marker at its
// start is the rejected header itself, and reading it again would loop.)
func (s *headerStream) pushBackFrom(data []byte, from int) {
	if i := indexFold(data[from:], contentLengthMarker); i >= 0 {
		s.pushBack(data[from+i:])
		return
	}
	tail := data[max(from, len(data)-(len(contentLengthMarker)-1)):]
	s.pushBack(tail[bytes.LastIndexByte(tail, '\n')+1:])
}

// pushBack makes data the next input, ahead of what is buffered and of
// what an earlier push back left unread.
func (s *headerStream) pushBack(data []byte) {
	if len(data) == 0 {
		return
	}
	buffered, _ := s.in.Peek(s.in.Buffered())
	pending := append(bytes.Clone(data), buffered...)
	if s.pending != nil {
		rest, _ := io.ReadAll(s.pending)
		pending = append(pending, rest...)
	}
	s.pending = bytes.NewReader(pending)
	s.in = bufio.NewReaderSize(io.MultiReader(s.pending, s.raw), readBufferSize)
}

// indexFold is bytes.Index for an ASCII needle, ignoring case.
func indexFold(s []byte, needle string) int {
	for i := 0; i+len(needle) <= len(s); i++ {
		if bytes.EqualFold(s[i:i+len(needle)], []byte(needle)) {
			return i
		}
	}
	return -1
}

// isHeaderName reports whether name is an HTTP header field name (a token).
func isHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range []byte(name) {
		isAlnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !isAlnum && !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}
