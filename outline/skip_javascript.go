package outline

// jsLex and tsLex know JavaScript's and TypeScript's comments and
// literals: strings, template literals (their ${…} read as code),
// regular expressions (told from a division by the token before the
// slash) and, in JavaScript and TSX, JSX elements; tsLex reads no JSX (a <
// there may start a type assertion).
var (
	jsLex = lexOptions{literal: jsxLiteral, literalStarts: "\"'`/#<"}
	tsLex = lexOptions{literal: jsLiteral, literalStarts: "\"'`/#"}
)

func jsxLiteral(l *lexer, i int) int {
	if l.src[i] == '<' && expressionStarts(l.src, l.prev) {
		return jsxElement(l, i)
	}
	return jsLiteral(l, i)
}

func jsLiteral(l *lexer, i int) int {
	src := l.src
	switch c := src[i]; {
	case c == '"' || c == '\'':
		return quoted(src, i, false)
	case c == '`':
		return template(l, i)
	case c == '/' && expressionStarts(src, l.prev):
		return regexpLiteral(src, i)
	case c == '#' && i == 0 && len(src) > 1 && src[1] == '!':
		return l.lineEnd(i) // #!/usr/bin/env node
	}
	return i
}

// expressionStarts reports whether an expression may start after prev:
// where a / starts a regular expression rather than dividing, and a <
// starts a JSX element rather than comparing.
func expressionStarts(src []byte, prev token) bool {
	switch prev.kind {
	case tokEOF:
		return true
	case tokLiteral:
		return false
	case tokWord:
		return jsOperatorWords[prev.word(src)]
	}
	switch src[prev.start] {
	case ')', ']':
		return false
	case '+', '-':
		return prev.start == 0 || src[prev.start-1] != src[prev.start] // a++ / b divides
	}
	return true
}

// jsOperatorWords are the keywords an expression may follow.
var jsOperatorWords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true, "delete": true,
	"void": true, "throw": true, "case": true, "do": true, "else": true, "yield": true, "await": true,
}

// regexpLiteral returns the end of the regular expression literal at i (its
// flags included), or -1 when a line break comes before its closing /.
func regexpLiteral(src []byte, i int) int {
	class := false
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
			if j < len(src) && src[j] == '\n' {
				return -1
			}
		case '\n':
			return -1
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				j++
				for j < len(src) && isWordByte(src[j]) {
					j++
				}
				return j
			}
		}
	}
	return -1
}

// template returns the end of the template literal at i, its
// substitutions read as code; -1 when it does not close.
func template(l *lexer, i int) int {
	src := l.src
	for j := i + 1; j < len(src); j++ {
		switch {
		case src[j] == '\\':
			j++
		case src[j] == '`':
			return j + 1
		case src[j] == '$' && j+1 < len(src) && src[j+1] == '{':
			end := l.code(j + 1)
			if end < 0 {
				return -1
			}
			j = end - 1
		}
	}
	return -1
}

// code reads the code between the { at open and its closing }, as a
// template's substitution or a JSX expression, and returns the index
// after the }; -1 when it does not close or nests too deep.
func (l *lexer) code(open int) int {
	if l.nesting >= maxLexNesting {
		return -1
	}
	sub := &lexer{src: l.src, i: open + 1, opts: l.opts, nesting: l.nesting + 1,
		prev: token{kind: tokPunct, start: open, end: open + 1}}
	depth := 0
	for {
		t := sub.next()
		switch {
		case t.kind == tokEOF || t.kind == tokBad:
			return -1
		case t.is(l.src, '{'):
			depth++
		case t.is(l.src, '}'):
			if depth == 0 {
				return t.end
			}
			depth--
		}
	}
}

// jsxElement returns the end of the JSX element (or fragment) at i, i
// when no element starts there, or -1 when it cannot be read for sure.
func jsxElement(l *lexer, i int) int {
	src := l.src
	if l.nesting >= maxLexNesting {
		return -1
	}
	j := jsxSpace(src, i+1)
	if j < len(src) && src[j] == '>' {
		return jsxChildren(l, j+1) // <>…</>
	}
	if j >= len(src) || !isJSXNameByte(src[j]) || src[j] >= '0' && src[j] <= '9' {
		return i
	}
	for j < len(src) && isJSXNameByte(src[j]) {
		j++
	}
	for { // attributes
		j = jsxSpace(src, j)
		switch {
		case j >= len(src):
			return -1
		case src[j] == '/' && j+1 < len(src) && src[j+1] == '>':
			return j + 2
		case src[j] == '>':
			return jsxChildren(l, j+1)
		case src[j] == '{':
			if j = l.code(j); j < 0 {
				return -1
			}
		case isJSXNameByte(src[j]):
			for j < len(src) && isJSXNameByte(src[j]) {
				j++
			}
			if j = jsxSpace(src, j); j < len(src) && src[j] == '=' {
				if j = jsxValue(l, jsxSpace(src, j+1)); j < 0 {
					return -1
				}
			}
		default:
			return -1 // <T,>(…) in TSX, or not JSX at all: read no further
		}
	}
}

// jsxValue returns the end of the attribute value at j: a string, an
// expression in braces or an element.
func jsxValue(l *lexer, j int) int {
	src := l.src
	switch {
	case j >= len(src):
		return -1
	case src[j] == '"' || src[j] == '\'':
		return quoted(src, j, true)
	case src[j] == '{':
		return l.code(j)
	case src[j] == '<':
		sub := *l
		sub.nesting, sub.comment = sub.nesting+1, nil
		if end := jsxElement(&sub, j); end > j {
			return end
		}
	}
	return -1
}

// jsxChildren reads an element's children from j, up to and including its
// closing tag, and returns the index after it.
func jsxChildren(l *lexer, j int) int {
	src := l.src
	for j < len(src) {
		switch src[j] {
		case '{':
			if j = l.code(j); j < 0 {
				return -1
			}
		case '<':
			if k := jsxSpace(src, j+1); k < len(src) && src[k] == '/' {
				for k < len(src) && src[k] != '>' {
					k++
				}
				if k >= len(src) {
					return -1
				}
				return k + 1
			}
			sub := *l
			sub.nesting, sub.comment = sub.nesting+1, nil
			end := jsxElement(&sub, j)
			if end <= j {
				return -1
			}
			j = end
		default:
			j++
		}
	}
	return -1
}

func jsxSpace(src []byte, j int) int {
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
		j++
	}
	return j
}

func isJSXNameByte(c byte) bool { return isWordByte(c) || c == '.' || c == ':' || c == '-' || c == '$' }

// jsBodies appends to skip the insides of src's function bodies and other
// statement blocks ("statement_block", an opaque kind): the { after the )
// of a function's or method's parameters (TypeScript: and its return
// type), after an arrow's =>, and after else, try, finally, do or a
// class's static. Never the { of a class (class A extends f(x) {), of a
// switch, or of an object type in a return type (): { a: T } {).
func jsBodies(src []byte, skip []uint32, opts *lexOptions) []uint32 {
	s := newSkipScan(src, opts, skip)
	var (
		depth    int
		switches []bool // for each ( open: whether a switch's
		after    = -1   // the depth at which a ) closed whose { is a body; -1: none
		typed    bool   // after that ) came : and a return type
		angle    int    // generic <> open in that return type
		arrow    bool   // the last tokens are =>
		classAt  = -1   // the depth of a class header: its { is the class's
		prev     token
	)
	for t, ok := s.nextOutside(); ok; t, ok = s.nextOutside() {
		wasArrow := arrow
		arrow = false
		switch {
		case t.kind == tokWord:
			if w := t.word(src); w == "class" && !prev.is(src, '.') && classKeyword(src, t.end) {
				classAt = depth
			}
			if after == depth && !typed {
				after = -1
			}
		case t.kind == tokLiteral:
			if after == depth && !typed {
				after = -1
			}
		case t.is(src, '('):
			switches = append(switches, prev.word(src) == "switch")
			depth++
		case t.is(src, ')'):
			depth = max(depth-1, 0)
			if n := len(switches); n > 0 {
				if !switches[n-1] && !(typed && after == depth) { // not a function type's, in a return type
					after, typed = depth, false
				}
				switches = switches[:n-1]
			}
		case t.is(src, '['):
			depth++
		case t.is(src, ']'):
			depth = max(depth-1, 0)
		case t.is(src, '{'):
			body := wasArrow || after == depth && !(typed && typeStarts(src, prev)) || jsBlockWords[prev.word(src)]
			if classAt == depth {
				body, classAt = false, -1
			}
			if body {
				s.openBody(t)
				after, typed = -1, false
				break
			}
			depth++
		case t.is(src, '}'):
			depth = max(depth-1, 0)
			if after > depth {
				after, typed = -1, false
			}
			if classAt > depth {
				classAt = -1
			}
		case t.is(src, '>') && prev.is(src, '='):
			arrow = true // =>
		case after != depth:
		case t.is(src, ':') && !typed:
			typed, angle = true, 0 // a return type
		case typed && t.is(src, '<'):
			angle++
		case typed && t.is(src, '>'):
			angle = max(angle-1, 0)
		case typed && (t.is(src, '|') || t.is(src, '&') || t.is(src, '.') || t.is(src, '?') || angle > 0 && t.is(src, ',') ||
			t.is(src, '=') && t.end < len(src) && src[t.end] == '>'):
			// the return type goes on
		default:
			after, typed = -1, false
		}
		prev = t
	}
	return s.skip
}

// classKeyword reports whether the word class ending at end starts a
// class (a name or { follows), not a property called class.
func classKeyword(src []byte, end int) bool {
	j := jsxSpace(src, end)
	return j < len(src) && (isWordByte(src[j]) || src[j] == '{')
}

// typeStarts reports whether a { after prev, in a return type, opens an
// object type rather than the body: after :, |, &, <, ,, (, [, =>, or a
// keyword of types.
func typeStarts(src []byte, prev token) bool {
	if prev.kind == tokWord {
		switch prev.word(src) {
		case "keyof", "typeof", "readonly", "is", "extends", "infer", "in", "asserts", "unique":
			return true
		}
		return false
	}
	if prev.kind != tokPunct {
		return false
	}
	switch src[prev.start] {
	case ':', '|', '&', '<', ',', '(', '[', '?':
		return true
	case '>':
		return prev.start > 0 && src[prev.start-1] == '='
	}
	return false
}

// jsBlockWords are the words a statement block follows.
var jsBlockWords = map[string]bool{"else": true, "try": true, "finally": true, "do": true, "static": true}

func javascriptBodies(src []byte, skip []uint32) []uint32 { return jsBodies(src, skip, &jsLex) }
func typescriptBodies(src []byte, skip []uint32) []uint32 { return jsBodies(src, skip, &tsLex) }
