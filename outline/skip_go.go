package outline

// goBodies appends to skip (pairs of byte offsets) the insides of the
// bodies of src's function declarations and function literals, and of the
// braces in the values of top-level var and const declarations (composite
// literals: the tables of generated files): text no outline entry reads (a
// body is a "block", a value an "expression_list", both opaque kinds), so
// the parse may leave it out, and most of a Go file's parse with it.
//
// It is a scan of Go's lexical structure, not a parse: it knows comments,
// interpreted and raw strings and runes, and the nesting of (), [] and {}.
// A body is the { that follows the keyword func at the top level, on the
// line where the signature ends (Go ends a statement at a line break after
// a signature, so a { on a later line is not its body), outside its
// parentheses and brackets, and not right after struct or interface (a
// result type's braces). A value runs from the = of a top-level var or
// const spec (alone or in a parenthesised group) to the end of its line;
// every { in it opens braces whose inside is skipped. A body whose end it
// cannot find is not skipped. A wrong guess skips text inside a block or a
// composite literal's braces, which the outline prunes anyway.
// TestOpaqueKindsChangeNothing compares outlines made with and without
// skipping (over the whole Go standard library, 8,037 files, by hand: the
// same for every file that parses without error).
func goBodies(src []byte, skip []uint32) []uint32 {
	var (
		depth    int    // (, [ and { open outside bodies
		funcAt   = -1   // the depth of the func keyword whose body is next; -1: none
		lastWord []byte // the last identifier or keyword, for struct and interface
		specAt   = -1   // the depth of the specs of a top-level var or const; -1: none
		valueAt  = -1   // the depth of the value being scanned (specAt); -1: none
	)
	endSpec := func() { // at the end of a line or a ; at the specs' depth
		valueAt = -1
		if specAt == 0 {
			specAt = -1 // a lone spec ends the declaration
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			if funcAt == depth {
				funcAt = -1 // the signature ended without a body: a func type
			}
			if specAt == depth {
				endSpec()
			}
			i++
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			end, newline := skipComment(src, i)
			if newline && funcAt == depth {
				funcAt = -1
			}
			if newline && specAt == depth {
				endSpec()
			}
			i = end
		case c == '"' || c == '\'' || c == '`':
			i = skipQuoted(src, i)
			lastWord = nil
		case isWordByte(c):
			start := i
			for i < len(src) && isWordByte(src[i]) {
				i++
			}
			lastWord = src[start:i]
			switch word := string(lastWord); {
			case word == "func" && funcAt < 0:
				funcAt = depth
			case (word == "var" || word == "const") && depth == 0:
				specAt, valueAt = 0, -1
			}
		case c == '(' || c == '[':
			if c == '(' && specAt == depth && depth == 0 && valueAt < 0 && (string(lastWord) == "var" || string(lastWord) == "const") {
				specAt = 1 // a group of specs
			}
			depth++
			i++
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
			if funcAt > depth {
				funcAt = -1 // a func type inside brackets that just closed
			}
			if specAt > depth {
				specAt, valueAt = -1, -1 // the group closed
			}
			i++
			lastWord = nil
		case c == ',' || c == ';':
			if funcAt == depth {
				funcAt = -1 // a func type in a list: no body follows
			}
			if c == ';' && specAt == depth {
				endSpec()
			}
			i++
		case c == '=' && specAt == depth && valueAt < 0:
			if i+1 < len(src) && src[i+1] == '=' {
				i += 2 // not an assignment (no spec holds one before its =)
				continue
			}
			valueAt = depth
			i++
		case c == '{':
			word := string(lastWord)
			lastWord = nil
			inValue := valueAt >= 0 && depth >= valueAt
			if !inValue && (funcAt != depth || word == "struct" || word == "interface") {
				depth++
				i++
				continue
			}
			end := matchingBrace(src, i)
			if end < 0 {
				return skip // unbalanced: leave the rest to the parser
			}
			if end > i+1 {
				skip = append(skip, uint32(i+1), uint32(end))
			}
			if funcAt == depth {
				funcAt = -1
			}
			i = end + 1
		default:
			i++
		}
	}
	return skip
}

// matchingBrace returns the index of the } that closes the { at open, or -1.
func matchingBrace(src []byte, open int) int {
	depth := 0
	for i := open; i < len(src); {
		switch c := src[i]; {
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			i, _ = skipComment(src, i)
		case c == '"' || c == '\'' || c == '`':
			i = skipQuoted(src, i)
		case c == '{':
			depth++
			i++
		case c == '}':
			depth--
			if depth == 0 {
				return i
			}
			i++
		default:
			i++
		}
	}
	return -1
}

// skipComment returns the index after the comment at i (// or /*), and
// whether it ends a line as Go sees it (a line comment does; a general
// comment does when it holds a line break).
func skipComment(src []byte, i int) (int, bool) {
	if src[i+1] == '/' {
		for i < len(src) && src[i] != '\n' {
			i++
		}
		return i, false // the line break itself is the caller's
	}
	newline := false
	for i += 2; i < len(src); i++ {
		if src[i] == '\n' {
			newline = true
		}
		if src[i] == '*' && i+1 < len(src) && src[i+1] == '/' {
			return i + 2, newline
		}
	}
	return len(src), newline
}

// skipQuoted returns the index after the string or rune literal at i: an
// interpreted string or rune ends at its unescaped quote or at a line
// break, a raw string at its closing backquote.
func skipQuoted(src []byte, i int) int {
	quote := src[i]
	for i++; i < len(src); i++ {
		switch c := src[i]; {
		case c == quote:
			return i + 1
		case quote != '`' && c == '\\':
			i++
		case quote != '`' && c == '\n':
			return i
		}
	}
	return len(src)
}

// isWordByte reports whether c may be part of an identifier or keyword
// (bytes of a multi-byte UTF-8 letter included).
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
