package outline

import (
	"bytes"
	"sync"
)

// The body scanners of the brace languages (skip_*.go) find the insides of
// function bodies by a scan of the source's tokens, as goBodies does Go's:
// much cheaper than the parse they let leave that text out. They share the
// lexer below, which knows what a language's comments, literals and
// preprocessor lines are, so that no brace inside them is counted. A
// scanner that meets text it cannot read for sure (an unterminated
// literal, a conditional directive inside a body) skips less, never more:
// a wrong skip would lose declarations.

// tokenKind is what a token is.
type tokenKind uint8

const (
	tokEOF       tokenKind = iota
	tokWord                // an identifier, keyword or number
	tokPunct               // one byte of punctuation
	tokLiteral             // a string, character, raw string, template or regular expression literal
	tokDirective           // a preprocessor line (C, C++, C#), with its continuations
	tokBad                 // text the lexer cannot read for sure: no skipping from here on
)

// token is one token: its kind and byte range, whether a line break
// precedes it, and for a directive which conditional one it is, if any.
type token struct {
	kind       tokenKind
	start, end int
	newline    bool
	cond       condKind
}

// condKind tells the conditional directives apart: their branches may
// leave the braces unbalanced.
type condKind uint8

const (
	condNone  condKind = iota
	condIf             // #if, #ifdef, #ifndef
	condElse           // #elif…, #else
	condEndif          // #endif
)

// is reports whether t is the one-byte punctuation c.
func (t token) is(src []byte, c byte) bool { return t.kind == tokPunct && src[t.start] == c }

// word returns t's text when it is a word, else "".
func (t token) word(src []byte) string {
	if t.kind != tokWord {
		return ""
	}
	return string(src[t.start:t.end])
}

// lexOptions are what a language's lexer knows.
type lexOptions struct {
	nestedComments bool // /* nests (Rust)
	directives     bool // # first on a line starts a preprocessor line (C, C++, C#)
	continuations  bool // a backslash before a line break continues a // comment or a directive (C, C++)
	digitQuotes    bool // ' may separate a number's digits (C++14, C23)
	// literal returns the end of the literal starting at src[i], or i when
	// none starts there; -1 when one starts but cannot be read for sure
	// (unterminated, nested too deep). l.prev is the token before it (a
	// regular expression's slash is told from a division's by it).
	literal func(l *lexer, i int) int
	// literalStarts are the bytes a literal may start with: literal is
	// called only at those.
	literalStarts string

	classes [256]byteClass // each byte's class, made on first use (newLexer)
	starts  [256]bool      // literalStarts as a table, made with classes
	once    sync.Once
}

// byteClass is what a byte may start, for the lexer's fast paths.
type byteClass uint8

const (
	classOther   byteClass = iota // a comment, literal or directive may start here: the lexer must read it
	classBlank                    // a blank other than a line break
	classNewline                  // a line break
	classWord                     // a word, which no literal starts with
	classPunct                    // one byte of punctuation, which starts nothing else
)

// build makes o's table of byte classes.
func (o *lexOptions) build() {
	for i := range len(o.literalStarts) {
		o.starts[o.literalStarts[i]] = true
	}
	for c := range 256 {
		switch b := byte(c); {
		case o.starts[c] || b == '/' || b == '#' && o.directives:
			o.classes[c] = classOther
		case b == '\n':
			o.classes[c] = classNewline
		case b == ' ' || b == '\t' || b == '\r' || b == '\f' || b == '\v':
			o.classes[c] = classBlank
		case isWordByte(b):
			o.classes[c] = classWord
		default:
			o.classes[c] = classPunct
		}
	}
}

// maxLexNesting bounds the nesting of literals within literals (template
// literals holding substitutions holding template literals…): deeper text
// is not read, so hostile input cannot recurse without end.
const maxLexNesting = 64

// lexer reads a source's tokens.
type lexer struct {
	src       []byte
	i         int
	opts      *lexOptions
	lineStart bool  // nothing but blanks since the last line break (or the start)
	prev      token // the token returned last
	nesting   int   // literals within literals being read
	// comment, when set, is told of each comment next passes over.
	comment func(start, end int)
}

func newLexer(src []byte, opts *lexOptions) *lexer {
	opts.once.Do(opts.build)
	return &lexer{src: src, opts: opts, lineStart: true}
}

// next returns the next token, skipping blanks and comments.
func (l *lexer) next() token {
	src := l.src
	classes := &l.opts.classes
	newline := false
	for l.i < len(src) {
		c := src[l.i]
		switch classes[c] {
		case classBlank:
			l.i++
			continue
		case classNewline:
			newline, l.lineStart = true, true
			l.i++
			continue
		case classOther:
			switch {
			case c == '/' && l.i+1 < len(src) && src[l.i+1] == '/':
				end := l.lineEnd(l.i)
				if l.comment != nil {
					l.comment(l.i, end)
				}
				l.i = end
				continue
			case c == '/' && l.i+1 < len(src) && src[l.i+1] == '*':
				end, hasNewline := l.blockComment(l.i)
				if end < 0 {
					return l.emit(token{kind: tokBad, start: l.i, end: len(src)})
				}
				if l.comment != nil {
					l.comment(l.i, end)
				}
				newline = newline || hasNewline
				l.lineStart = l.lineStart || hasNewline
				l.i = end
				continue
			case c == '#' && l.opts.directives && l.lineStart:
				return l.emit(l.directive(newline))
			}
		}
		break
	}
	if l.i >= len(src) {
		return l.emit(token{kind: tokEOF, start: len(src), end: len(src), newline: newline})
	}
	l.lineStart = false
	start := l.i
	c := src[start]
	if l.opts.starts[c] {
		if end := l.opts.literal(l, start); end < 0 {
			return l.emit(token{kind: tokBad, start: start, end: len(src), newline: newline})
		} else if end > start {
			l.i = end
			return l.emit(token{kind: tokLiteral, start: start, end: end, newline: newline})
		}
	}
	if isWordByte(c) {
		l.i = l.wordEnd(start)
		return l.emit(token{kind: tokWord, start: start, end: l.i, newline: newline})
	}
	l.i++
	return l.emit(token{kind: tokPunct, start: start, end: l.i, newline: newline})
}

// punct takes the one byte of punctuation at i as next would.
func (l *lexer) punct(i int) {
	l.prev = token{kind: tokPunct, start: i, end: i + 1}
	l.lineStart = false
}

func (l *lexer) emit(t token) token {
	l.prev = t
	return t
}

// wordEnd returns the end of the word (identifier, keyword or number) at i.
func (l *lexer) wordEnd(i int) int {
	src := l.src
	if src[i] < '0' || src[i] > '9' {
		for i < len(src) && wordBytes[src[i]] {
			i++
		}
		return i
	}
	for i < len(src) { // a number
		switch c := src[i]; {
		case wordBytes[c]:
			i++
		case c == '\'' && l.opts.digitQuotes && i+1 < len(src) && wordBytes[src[i+1]]:
			i++ // 1'000'000
		case c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			i++ // 1.5: one word, not a member access
		default:
			return i
		}
	}
	return i
}

// wordBytes are the bytes isWordByte accepts, as a table.
var wordBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isWordByte(byte(c))
	}
	return t
}()

// lineEnd returns the index of the line break that ends the line comment
// or directive at i (a backslash before a line break continues it, where
// the language says so), or len(src).
func (l *lexer) lineEnd(i int) int {
	src := l.src
	for i < len(src) {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return len(src)
		}
		i += j
		if l.opts.continuations && (i > 0 && src[i-1] == '\\' || i > 1 && src[i-1] == '\r' && src[i-2] == '\\') {
			i++
			continue
		}
		return i
	}
	return len(src)
}

// blockComment returns the end of the /* comment at i and whether it holds
// a line break; -1 when it is not closed.
func (l *lexer) blockComment(i int) (int, bool) {
	src := l.src
	if !l.opts.nestedComments {
		end := bytes.Index(src[i+2:], commentEnd)
		if end < 0 {
			return -1, false
		}
		end += i + 4
		return end, bytes.IndexByte(src[i:end], '\n') >= 0
	}
	depth, newline := 0, false
	for i < len(src) {
		switch {
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			depth++
			i += 2
		case src[i] == '*' && i+1 < len(src) && src[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				return i, newline
			}
		default:
			newline = newline || src[i] == '\n'
			i++
		}
	}
	return -1, newline
}

var commentEnd = []byte("*/")

// directive reads the preprocessor line at l.i: to its line break, past
// continuations and through block comments that span lines.
func (l *lexer) directive(newline bool) token {
	src := l.src
	start := l.i
	i := start + 1
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	nameStart := i
	for i < len(src) && isWordByte(src[i]) {
		i++
	}
	cond := condNone
	switch string(src[nameStart:i]) {
	case "if", "ifdef", "ifndef":
		cond = condIf
	case "elif", "elifdef", "elifndef", "else":
		cond = condElse
	case "endif":
		cond = condEndif
	}
	for i < len(src) && src[i] != '\n' {
		switch {
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			end, _ := l.blockComment(i)
			if end < 0 {
				return token{kind: tokBad, start: start, end: len(src)}
			}
			i = end
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
			i = l.lineEnd(i)
		case src[i] == '\\' && l.opts.continuations && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r' && i+2 < len(src) && src[i+2] == '\n'):
			i += 2
			if src[i-1] == '\r' {
				i++
			}
		default:
			i++
		}
	}
	l.i = i
	return token{kind: tokDirective, start: start, end: i, newline: newline, cond: cond}
}

// quoted returns the end of the string or character literal whose opening
// quote is at i: at its unescaped closing quote, -1 when a line break
// (where multiline is false) or the end of the text comes first.
func quoted(src []byte, i int, multiline bool) int {
	quote := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case quote:
			return i + 1
		case '\\':
			i++
		case '\n':
			if !multiline {
				return -1
			}
		}
	}
	return -1
}

// skipScan is the state every body scanner shares: the lexer, the
// ranges found, and the body being skipped, if any. A scanner asks for
// each token with next; while a body is open, its tokens only count its
// braces (inBody) until the one that closes it, which records its inside —
// unless the text ends first, or a conditional directive in it makes its
// braces doubtful: every #if in the body must end in it, and each of its
// branches open as many braces as it closes (else the branches do not
// parse alike). Branches that do not balance are counted as the first
// one, as a preprocessor taking it would, so the body still ends where it
// should. One pass, whatever the nesting: no text is read twice.
type skipScan struct {
	*lexer
	skip []uint32
	// notBefore, when not 0, is a byte that must not follow a body's } for
	// it to be skipped (C++: in int f() {}; the braces read as an
	// initializer when empty).
	notBefore byte
	bodyOpen  int         // the end of the { of the body being skipped; -1: none
	open      byte        // that bracket: {, or ( or [ for a group of tokens (Rust's macro calls)
	close     byte        // and the one that closes it
	bodyDepth int         // brackets of that kind open inside it
	conds     []condDepth // the #if open in it
	unsafe    bool
	run       commentRun // the comments outside bodies read since the last token
}

// condDepth is an #if open in a body: the brace depth where it started,
// and where its first branch ended (-1 until an #else or #elif).
type condDepth struct{ start, first int }

func newSkipScan(src []byte, opts *lexOptions, skip []uint32) *skipScan {
	s := &skipScan{lexer: newLexer(src, opts), skip: skip, bodyOpen: -1, run: commentRun{start: -1}}
	s.lexer.comment = s.comment
	return s
}

// nextOutside returns the next token outside the bodies being skipped, and
// false at the end of the text or at text the lexer cannot read for sure.
func (s *skipScan) nextOutside() (token, bool) {
	for {
		if s.bodyOpen >= 0 && !bodiesByToken {
			s.skipBody()
		}
		t := s.next()
		if t.kind == tokEOF || t.kind == tokBad {
			if t.kind == tokEOF {
				s.endComments()
			}
			return t, false
		}
		if !s.inBody(t) {
			s.endComments()
			return t, true
		}
	}
}

// openBody starts skipping the body whose { (or other bracket) is open.
func (s *skipScan) openBody(open token) {
	s.bodyOpen, s.bodyDepth, s.conds, s.unsafe = open.end, 0, s.conds[:0], false
	s.open, s.close = s.src[open.start], '}'
	switch s.open {
	case '(':
		s.close = ')'
	case '[':
		s.close = ']'
	}
}

// inBody takes t when a body is open, and reports whether it did.
func (s *skipScan) inBody(t token) bool {
	if s.bodyOpen < 0 {
		return false
	}
	switch {
	case t.kind == tokDirective && t.cond != condNone:
		s.directive(t.cond)
	case t.is(s.src, s.open):
		s.bodyDepth++
	case t.is(s.src, s.close):
		s.closeBracket(t.start)
	}
	return true
}

// closeBracket takes the body's closing bracket at i: the end of a
// bracket opened inside the body, or of the body, whose inside it records.
func (s *skipScan) closeBracket(i int) {
	if s.bodyDepth > 0 {
		s.bodyDepth--
		return
	}
	if !s.unsafe && len(s.conds) == 0 && i > s.bodyOpen && (s.notBefore == 0 || s.nextByte(i+1) != s.notBefore) {
		s.skip = append(s.skip, uint32(s.bodyOpen), uint32(i))
	}
	s.bodyOpen = -1
}

// bodiesByToken makes the scanners read bodies token by token, without
// skipBody's fast path: for the tests that hold the two to the same ranges.
var bodiesByToken = false

// skipBody reads the open body as next and inBody would, token by token,
// but without making tokens where it can: through blanks, words and
// punctuation, which is most of a body's text, it only counts brackets.
// It returns at the body's end, at the end of the text, or at a byte
// that may start a comment, literal or directive, for next to read.
func (s *skipScan) skipBody() {
	l := s.lexer
	src, classes := l.src, &l.opts.classes
	for i := l.i; i < len(src); {
		switch c := src[i]; {
		case c == s.open:
			s.bodyDepth++
			l.punct(i)
			i++
		case c == s.close:
			l.punct(i)
			s.closeBracket(i)
			i++
			if s.bodyOpen < 0 {
				l.i = i
				return
			}
		default:
			switch classes[c] {
			case classBlank:
				i++
			case classNewline:
				l.lineStart = true
				i++
			case classWord:
				l.i = i
				end := l.wordEnd(i)
				l.emit(token{kind: tokWord, start: i, end: end})
				l.lineStart = false
				i = end
			case classPunct:
				l.punct(i)
				i++
			default:
				l.i = i
				return
			}
		}
	}
	l.i = len(src)
}

// directive follows a conditional directive inside the body.
func (s *skipScan) directive(cond condKind) {
	if cond == condIf {
		s.conds = append(s.conds, condDepth{start: s.bodyDepth, first: -1})
		return
	}
	if len(s.conds) == 0 {
		s.unsafe = true // an #if from outside the body
		return
	}
	c := &s.conds[len(s.conds)-1]
	if s.bodyDepth != c.start {
		s.unsafe = true // a branch that does not balance
	}
	if c.first < 0 {
		c.first = s.bodyDepth
	}
	if cond == condElse {
		s.bodyDepth = c.start
		return
	}
	s.bodyDepth = c.first
	s.conds = s.conds[:len(s.conds)-1]
}

// nextByte returns the first byte from i on that is not blank nor in a
// comment, or 0 at the end of the text.
func (s *skipScan) nextByte(i int) byte {
	src := s.src
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = s.lineEnd(i)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end, _ := s.blockComment(i)
			if end < 0 {
				return 0
			}
			i = end
		default:
			return c
		}
	}
	return 0
}
