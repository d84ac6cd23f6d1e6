package outline

import "unicode/utf8"

// rustLex knows Rust's comments (block comments nest) and literals.
var rustLex = lexOptions{nestedComments: true, literal: rustLiteral, literalStarts: `"'bcr`}

// rustLiteral reads Rust's literals: strings (which may span lines), byte
// and C strings, raw strings (r#"…"#, any number of #), and character and
// byte literals; a ' that starts none of these (a lifetime, a label) is
// punctuation.
func rustLiteral(l *lexer, i int) int {
	src := l.src
	switch c := src[i]; {
	case c == '"':
		return quoted(src, i, true)
	case c == '\'':
		if i+1 < len(src) && src[i+1] == '\\' {
			return quoted(src, i, false) // '\n', '\'', '\u{1F600}'
		}
		if _, size := utf8.DecodeRune(src[i+1:]); i+1+size < len(src) && src[i+1+size] == '\'' {
			return i + 2 + size
		}
		return i // 'a: a lifetime or label
	case c == 'b' || c == 'c' || c == 'r':
		j := i + 1
		if c == 'b' && j < len(src) && src[j] == '\'' {
			return quoted(src, j, false)
		}
		if c != 'r' && j < len(src) && src[j] == '"' {
			return quoted(src, j, true)
		}
		if c != 'r' {
			if j >= len(src) || src[j] != 'r' {
				return i
			}
			j++
		}
		return rawString(src, i, j)
	}
	return i
}

// rawString reads the raw string whose r is just before j (r"…", r#"…"#),
// or returns start when none starts there (r#ident is a raw identifier,
// left to the word reader).
func rawString(src []byte, start, j int) int {
	hashes := 0
	for j < len(src) && src[j] == '#' {
		hashes++
		j++
	}
	if j >= len(src) || src[j] != '"' {
		return start
	}
	for j++; j < len(src); j++ {
		if src[j] != '"' {
			continue
		}
		k := 0
		for k < hashes && j+1+k < len(src) && src[j+1+k] == '#' {
			k++
		}
		if k == hashes {
			return j + 1 + hashes
		}
	}
	return -1
}

// rustBodies appends to skip (pairs of byte offsets) the insides of the
// bodies of src's function items — free functions, methods, trait
// methods with a default body — which are "block"s, an opaque kind. A
// body is the first { after `fn NAME` at the depth of the fn, unless a ;
// or , at that depth, or a bracket closing around it, comes first (a
// declaration without body, a fn pointer type in a list; a , inside the
// signature's generic <> ends nothing): `fn(` is a pointer type, never an
// item. Closures are left to the parser. It skips too the insides of
// macro calls (NAME!{…}, NAME!(…), NAME![…]): "token_tree"s, whose tokens
// no entry reads (tokio wraps whole modules in cfg_rt! { … }); a
// macro_rules! definition is not a call.
func rustBodies(src []byte, skip []uint32) []uint32 {
	s := newSkipScan(src, &rustLex, skip)
	depth := 0
	fnAt := -1 // the depth of the fn item whose body comes next; -1: none
	angle := 0 // generic <> open in its signature, at its depth (a , there ends nothing)
	afterFn := false
	afterBang := false // NAME! came: a macro call, whose tokens no entry reads
	var prev token
	for t, ok := s.nextOutside(); ok; t, ok = s.nextOutside() {
		wasFn, wasBang := afterFn, afterBang
		afterFn, afterBang = false, false
		switch {
		case wasBang && (t.is(src, '{') || t.is(src, '(') || t.is(src, '[')):
			s.openBody(t) // a macro call's tokens
			continue
		case t.kind == tokWord:
			if wasFn && fnAt < 0 {
				fnAt, angle = depth, 0 // fn NAME: an item
			}
			afterFn = t.word(src) == "fn"
		case t.is(src, '!') && prev.kind == tokWord && prev.end == t.start && prev.word(src) != "macro_rules" && !(t.end < len(src) && src[t.end] == '='):
			afterBang = true
		case t.is(src, '(') || t.is(src, '['):
			depth++
		case t.is(src, ')') || t.is(src, ']') || t.is(src, '}'):
			depth = max(depth-1, 0)
			if fnAt > depth {
				fnAt = -1
			}
		case fnAt == depth && t.is(src, '<'):
			angle++
		case fnAt == depth && t.is(src, '>') && src[t.start-1] != '-' && src[t.start-1] != '=':
			angle = max(angle-1, 0)
		case t.is(src, ';') || t.is(src, ','):
			if fnAt == depth && (angle == 0 || t.is(src, ';')) {
				fnAt = -1
			}
		case t.is(src, '{'):
			if fnAt == depth {
				s.openBody(t)
				fnAt = -1
				continue
			}
			depth++
		}
		prev = t
	}
	return s.skip
}
