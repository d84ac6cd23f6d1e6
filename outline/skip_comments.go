package outline

// Comments are text no outline reads, and once bodies are skipped they
// are much of what the parse still reads: tokio's doc comments, Java's
// Javadoc. The body scanners leave them out too (skipScan.comment): each
// run of comments outside the bodies, with only blanks between them, is
// one range, when it has lines of its own: a line break before it (or the
// start of the text) and one after it. The line breaks left keep apart
// the tokens around it, and the lines that JavaScript's automatic
// semicolons and the preprocessor's directives depend on. A comment after
// a token on its line is left in: TypeScript's automatic semicolon may
// close a declaration after it (type A = "a" // note), which then ends
// with it.

// commentRun is a run of comments being read: start is -1 for none.
type commentRun struct{ start, end int }

// comment takes the comment from start to end that the lexer passed over:
// outside a body, it starts a run of comments or extends the one being
// read, unless that one follows a token on its line (it is left in, and
// this comment may start a run of lines of their own).
func (s *skipScan) comment(start, end int) {
	if s.bodyOpen >= 0 {
		return // in the body's range, or in a body left whole
	}
	if s.run.start >= 0 && onlyBlanks(s.src[s.run.end:start]) && lineBreakBefore(s.src, s.run.start) {
		s.run.end = end
		return
	}
	s.endComments()
	s.run = commentRun{start, end}
}

// endComments records the run of comments being read, if it may be left out.
func (s *skipScan) endComments() {
	r, src := s.run, s.src
	if r.start < 0 {
		return
	}
	s.run.start = -1
	if r.end >= len(src) || src[r.end] != '\n' || !lineBreakBefore(src, r.start) {
		return
	}
	s.skip = append(s.skip, uint32(r.start), uint32(r.end))
}

// isBlank reports whether c is a blank or a line break.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func onlyBlanks(b []byte) bool {
	for _, c := range b {
		if !isBlank(c) {
			return false
		}
	}
	return true
}

// lineBreakBefore reports whether only blanks come between the line break
// before i, or the start of the text, and i.
func lineBreakBefore(src []byte, i int) bool {
	for i--; i >= 0; i-- {
		switch src[i] {
		case '\n':
			return true
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}
