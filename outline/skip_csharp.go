package outline

// csharpLex knows C#'s comments, preprocessor lines and literals: regular,
// verbatim (@"…") and raw ("""…""") strings, interpolated ones ($"…{x}…",
// their holes read as code) and characters.
var csharpLex = lexOptions{directives: true, literal: csharpLiteral, literalStarts: `"'$@`}

func csharpLiteral(l *lexer, i int) int {
	src := l.src
	j, dollars, verbatim := i, 0, false
	for j < len(src) && (src[j] == '$' || src[j] == '@') {
		if src[j] == '$' {
			dollars++
		} else {
			verbatim = true
		}
		j++
	}
	if j >= len(src) || j-i > dollars+1 || verbatim && j-i > 2 {
		return i
	}
	switch {
	case src[j] == '\'' && j == i:
		return quoted(src, i, false)
	case src[j] != '"':
		return i
	case j+2 < len(src) && src[j+1] == '"' && src[j+2] == '"' && !verbatim:
		return csharpRawString(src, j)
	case dollars == 0 && !verbatim:
		return quoted(src, j, false)
	}
	return csharpString(l, j+1, dollars > 0, verbatim)
}

// csharpString returns the end of the verbatim or interpolated string
// whose text starts at j: "" is a quote in a verbatim one, {{ a brace in
// an interpolated one, whose { … } holes are code.
func csharpString(l *lexer, j int, interpolated, verbatim bool) int {
	src := l.src
	for ; j < len(src); j++ {
		switch c := src[j]; {
		case c == '"' && verbatim && j+1 < len(src) && src[j+1] == '"':
			j++
		case c == '"':
			return j + 1
		case c == '\\' && !verbatim:
			j++
		case c == '\n' && !verbatim:
			return -1
		case c == '{' && interpolated && j+1 < len(src) && src[j+1] == '{':
			j++
		case c == '{' && interpolated:
			end := l.code(j)
			if end < 0 {
				return -1
			}
			j = end - 1
		}
	}
	return -1
}

// csharpRawString returns the end of the raw string whose quotes start at
// j: it ends at as many quotes as it starts with.
func csharpRawString(src []byte, j int) int {
	n := 0
	for j+n < len(src) && src[j+n] == '"' {
		n++
	}
	for k := j + n; k < len(src); k++ {
		if src[k] != '"' {
			continue
		}
		m := 0
		for k+m < len(src) && src[k+m] == '"' {
			m++
		}
		if m >= n {
			return k + m
		}
		k += m - 1
	}
	return -1
}

// csharpBodies appends to skip the insides of the bodies of src's methods,
// constructors, local functions, operators, accessors (get, set, init,
// add, remove) and lambdas: "block"s, an opaque kind. A body is the {
// after the ) of a parameter list — past a constructor's : base(…) and a
// method's where clauses — whose ( follows a name that is not a keyword
// (if, using, …) nor created or declared (new Name(…) {, record R(…) {), a
// > or an operator's symbol; the { after an accessor's keyword; or after
// a lambda's =>.
func csharpBodies(src []byte, skip []uint32) []uint32 {
	s := newSkipScan(src, &csharpLex, skip)
	var (
		depth    int
		parens   []bool // for each ( open: whether it opens a parameter list
		after    = -1   // the depth at which a parameter list closed, whose body may come; -1: none
		created  bool   // new, class, record, … since the last ; { or }: a ( is not a method's
		operator bool   // the word operator came, and the ( of its parameters has not
		arrow    bool   // the last tokens are =>
		prev     token
	)
	for t, ok := s.nextOutside(); ok; t, ok = s.nextOutside() {
		if t.kind == tokDirective {
			continue // outside a body, the lines of every branch are read
		}
		wasArrow := arrow
		arrow = false
		switch {
		case t.kind == tokWord:
			switch t.word(src) {
			case "operator":
				operator = true
			case "new", "class", "struct", "record", "interface", "enum":
				created = true
			}
		case t.is(src, '('):
			list := operator || !created && (prev.is(src, '>') || prev.kind == tokWord && !csharpKeywords[prev.word(src)])
			operator = false
			parens = append(parens, list)
			depth++
		case t.is(src, ')'):
			depth = max(depth-1, 0)
			if n := len(parens); n > 0 {
				if parens[n-1] {
					after = depth
				}
				parens = parens[:n-1]
			}
		case t.is(src, '['):
			depth++
		case t.is(src, ']'):
			depth = max(depth-1, 0)
			if after > depth {
				after = -1
			}
		case t.is(src, '{'):
			if wasArrow || after == depth || csharpAccessors[prev.word(src)] {
				s.openBody(t)
			} else {
				depth++
			}
			after, created, operator = -1, false, false
		case t.is(src, '}'):
			depth = max(depth-1, 0)
			if after > depth {
				after = -1
			}
			created, operator = false, false
		case t.is(src, ';'):
			after, created, operator = -1, false, false
		case t.is(src, '>') && prev.is(src, '='):
			arrow, after = true, -1 // =>: an expression body, or a lambda's block
		case after != depth:
		case t.is(src, ':') || t.is(src, ',') || t.is(src, '<') || t.is(src, '>') || t.is(src, '.') || t.is(src, '?'):
			// a constructor's base call, a method's constraints
		case t.is(src, '=') && t.end < len(src) && src[t.end] == '>':
		default:
			after = -1
		}
		prev = t
	}
	return s.skip
}

// csharpKeywords are the words a ( may follow without opening a parameter
// list.
var csharpKeywords = map[string]bool{
	"if": true, "while": true, "for": true, "foreach": true, "switch": true, "catch": true, "when": true, "using": true,
	"lock": true, "fixed": true, "checked": true, "unchecked": true, "typeof": true, "sizeof": true, "nameof": true,
	"default": true, "return": true, "throw": true, "await": true, "base": true, "this": true, "new": true, "is": true,
	"as": true, "in": true, "out": true, "ref": true, "stackalloc": true, "yield": true, "case": true, "not": true,
	"and": true, "or": true, "var": true,
}

// csharpAccessors are the keywords an accessor's body follows.
var csharpAccessors = map[string]bool{"get": true, "set": true, "init": true, "add": true, "remove": true}
