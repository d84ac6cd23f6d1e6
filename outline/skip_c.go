package outline

// cLex knows the comments, preprocessor lines and literals of C and C++:
// strings and characters with their prefixes (L, u, U, u8), C++ raw
// strings (R"delim(…)delim"), and digit separators (1'000).
var cLex = lexOptions{directives: true, continuations: true, digitQuotes: true, literal: cLiteral, literalStarts: `"'LuUR`}

func cLiteral(l *lexer, i int) int {
	src := l.src
	j := i
	switch {
	case src[j] == 'u' && j+1 < len(src) && src[j+1] == '8':
		j += 2
	case src[j] == 'L' || src[j] == 'u' || src[j] == 'U':
		j++
	}
	if j < len(src) && src[j] == 'R' && j+1 < len(src) && src[j+1] == '"' {
		return rawCString(src, j+1)
	}
	if j < len(src) && (src[j] == '"' || src[j] == '\'') {
		return quoted(src, j, false)
	}
	return i
}

// rawCString returns the end of the C++ raw string whose " is at i
// (R"delim(…)delim"), or -1.
func rawCString(src []byte, i int) int {
	open := i + 1
	for open < len(src) && open-i <= 17 && src[open] != '(' {
		if c := src[open]; c == ' ' || c == ')' || c == '\\' || c == '\n' || c == '"' {
			return -1
		}
		open++
	}
	if open >= len(src) || src[open] != '(' {
		return -1
	}
	delim := src[i+1 : open]
	for j := open + 1; j < len(src); j++ {
		if src[j] == ')' && j+1+len(delim) < len(src) && string(src[j+1:j+1+len(delim)]) == string(delim) && src[j+1+len(delim)] == '"' {
			return j + 2 + len(delim)
		}
	}
	return -1
}

// cBodies appends to skip the insides of the bodies of src's function
// definitions — free functions, methods, lambdas — which are
// "compound_statement"s, an opaque kind. A body is the { that follows the
// ) of a declarator's parameter list at the same depth, with nothing in
// between but what may end a declarator: qualifiers and macros (const,
// noexcept(…), override, try, __attribute__((…))), a trailing return type
// (-> T), or a constructor's member initializers (: a(x), b{y}). A ( is a
// parameter list's when it follows a name that is not a keyword (if,
// sizeof, …), a >, ), ] or an operator's symbol. A ;, =, ?, a , outside
// member initializers, or struct, class, union, enum or namespace before
// the { mean it is not a body. A body followed by ; is not skipped: in a
// class, int f() {}; reads as a field with an initializer.
func cBodies(src []byte, skip []uint32) []uint32 {
	s := newSkipScan(src, &cLex, skip)
	s.notBefore = ';' // int f() {}; in a class is a field with an initializer
	var (
		depth    int
		parens   []bool // for each ( open: whether it may be a parameter list
		after    = -1   // the depth at which a parameter list closed, whose body may come; -1: none
		ctorInit bool   // after that ) came a constructor's : member initializers
		operator bool   // the word operator came, and the ( of its parameters has not
		prev     token
	)
	for t, ok := s.nextOutside(); ok; t, ok = s.nextOutside() {
		if t.kind == tokDirective {
			continue // outside a body, the lines of every branch are read
		}
		if t.is(src, ';') || t.is(src, '{') || t.is(src, '}') {
			operator = false
		}
		switch {
		case t.kind == tokWord:
			switch w := t.word(src); {
			case w == "operator":
				operator = true
			case after == depth && cTypeKeywords[w]:
				after = -1 // FOO(x) struct S {: a type's body
			}
		case t.kind == tokLiteral:
			if after == depth && !ctorInit {
				after = -1
			}
		case t.is(src, '('):
			list := operator || prev.is(src, '>') || prev.is(src, ')') || prev.is(src, ']') ||
				prev.kind == tokWord && !cNotDeclarators[prev.word(src)]
			operator = operator && prev.word(src) == "operator" // operator()(…): the name's () first
			parens = append(parens, list)
			depth++
		case t.is(src, ')'):
			depth = max(depth-1, 0)
			if n := len(parens); n > 0 {
				if parens[n-1] && !(ctorInit && after == depth) { // not a member initializer's (…)
					after, ctorInit = depth, false
				}
				parens = parens[:n-1]
			}
		case t.is(src, '['):
			depth++
		case t.is(src, ']'):
			depth = max(depth-1, 0)
		case t.is(src, '{'):
			if after == depth && !(ctorInit && (prev.kind == tokWord || prev.is(src, '>'))) {
				s.openBody(t)
				after = -1
				break
			}
			depth++
		case t.is(src, '}'):
			depth = max(depth-1, 0)
			if after > depth {
				after = -1
			}
		case after != depth:
		case t.is(src, ':'):
			if !(t.end < len(src) && src[t.end] == ':') && !prev.is(src, ':') {
				ctorInit = true
			}
		case t.is(src, ','):
			if !ctorInit {
				after = -1
			}
		case t.is(src, '<') || t.is(src, '>') || t.is(src, '*') || t.is(src, '&') || t.is(src, '-') || t.is(src, '.') || t.is(src, '~'):
			// a trailing return type, a reference qualifier, a scope
		default:
			after = -1 // ; = ? + …: a declaration, an initializer, an expression
		}
		prev = t
	}
	return s.skip
}

// cNotDeclarators are the words a ( may follow without opening a
// parameter list.
var cNotDeclarators = map[string]bool{
	"if": true, "while": true, "for": true, "switch": true, "catch": true, "return": true, "sizeof": true,
	"alignof": true, "_Alignof": true, "alignas": true, "_Alignas": true, "decltype": true, "typeof": true,
	"__typeof__": true, "__typeof": true, "typeid": true, "__attribute__": true, "__attribute": true,
	"__declspec": true, "static_assert": true, "_Static_assert": true, "noexcept": true, "throw": true,
	"requires": true, "asm": true, "__asm__": true, "__asm": true, "_Generic": true, "defined": true,
	"co_await": true, "co_return": true, "co_yield": true, "delete": true,
}

// cTypeKeywords start a type whose braces are its body, not a function's.
var cTypeKeywords = map[string]bool{"struct": true, "class": true, "union": true, "enum": true, "namespace": true}
