package outline

// javaLex knows Java's comments and literals: strings, text blocks
// ("""…""") and characters.
var javaLex = lexOptions{literal: javaLiteral, literalStarts: `"'`}

func javaLiteral(l *lexer, i int) int {
	src := l.src
	switch src[i] {
	case '"':
		if i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"' {
			return textBlock(src, i)
		}
		return quoted(src, i, false)
	case '\'':
		return quoted(src, i, false)
	}
	return i
}

// textBlock returns the end of the text block ("""…""") at i, or -1.
func textBlock(src []byte, i int) int {
	for j := i + 3; j+2 < len(src); j++ {
		switch {
		case src[j] == '\\':
			j++
		case src[j] == '"' && src[j+1] == '"' && src[j+2] == '"':
			return j + 3
		}
	}
	return -1
}

// javaBodies appends to skip the insides of the bodies of src's methods,
// constructors, lambdas and static initializers ("block" or
// "constructor_body", opaque kinds). A body is the { right after the )
// of a parameter list — or after the throws clause that follows it —
// whose ( comes right after a name that is not a keyword (if, while,
// switch, …) and is not created (new Name(…) { is an anonymous class)
// nor declared (record R(…) {); or the { after a lambda's ->, or after
// static at the top of a class body.
func javaBodies(src []byte, skip []uint32) []uint32 {
	s := newSkipScan(src, &javaLex, skip)
	var (
		parens  []bool // for each ( open: whether it opens a parameter list
		params  bool   // a parameter list (and its throws clause) just closed
		throws  bool   // in that throws clause
		prev    token  // the token before this one
		prev2   token  // and the one before it
		static  bool   // the last token is static, at the top of a class body
		created bool   // new, record, class, … since the last ; { or }: a ( is not a method's
	)
	for t, ok := s.nextOutside(); ok; t, ok = s.nextOutside() {
		wasParams, wasStatic := params, static
		params, static = false, false
		switch {
		case t.kind == tokWord:
			switch w := t.word(src); {
			case w == "throws" && wasParams:
				params, throws = true, true
			case throws && wasParams:
				params = true // an exception type
			case w == "new" || w == "record" || w == "class" || w == "interface" || w == "enum":
				created = true
			case w == "static":
				static = prev.kind == tokEOF || prev.is(src, ';') || prev.is(src, '{') || prev.is(src, '}')
			}
		case t.is(src, '.') || t.is(src, ','):
			params = throws && wasParams
		case t.is(src, '('):
			name := prev.kind == tokWord && !javaKeywords[prev.word(src)] && !created &&
				!prev2.is(src, '.') && prev2.word(src) != "new"
			parens = append(parens, name)
		case t.is(src, ')'):
			if n := len(parens); n > 0 {
				params, throws = parens[n-1], false
				parens = parens[:n-1]
			}
		case t.is(src, '{'):
			arrow := prev.is(src, '>') && prev.start > 0 && src[prev.start-1] == '-'
			if wasParams || wasStatic || arrow {
				s.openBody(t)
			}
			created = false
		case t.is(src, ';') || t.is(src, '}'):
			created = false
		}
		prev2, prev = prev, t
	}
	return s.skip
}

// javaKeywords are the words a ( follows that never make it a parameter
// list.
var javaKeywords = map[string]bool{
	"if": true, "while": true, "for": true, "switch": true, "catch": true, "synchronized": true, "try": true,
	"return": true, "throw": true, "new": true, "assert": true, "case": true, "yield": true, "default": true,
	"super": true, "this": true,
}
