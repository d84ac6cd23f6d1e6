package workspace

import (
	"strings"
	"unicode"
)

// An ignore file's wildcard lines are read as ripgrep reads them (its
// gitignore rules, then its globs with `*` stopping at a slash and
// backslash escapes) and matched by ignoreGlob, an automaton over the
// path's bytes: every state it may be in is carried along at once, so a
// match costs at most the path's length times the pattern's, whatever the
// pattern. A matcher that backtracks took minutes on `*a*a*a*a*a*a*b` and
// a long name, a pattern any repository can carry.

// ignoreLine reads one line of an ignore file as ripgrep does: a comment
// or a blank line is nothing (ok false); trailing whitespace goes unless
// escaped ("\ "); "!" re-includes; "\!" and "\#" start a pattern with that
// character; a leading "/" anchors the pattern to the file's directory, as
// does a slash inside it; a trailing "/" makes it match directories only.
// An unanchored pattern may match at any depth (a "**/" before it), and
// "dir/**" matches what is inside dir, not dir itself. It returns the glob
// to compile and the line's flags (its line number is the caller's).
func ignoreLine(line string) (glob string, lit literal, ok bool) {
	if strings.HasPrefix(line, "#") {
		return "", literal{}, false
	}
	if line = trimIgnoreLine(line); line == "" {
		return "", literal{}, false
	}
	anchored := false
	if strings.HasPrefix(line, "\\!") || strings.HasPrefix(line, "\\#") {
		line = line[1:]
	} else {
		if strings.HasPrefix(line, "!") {
			lit.negated, line = true, line[1:]
		}
		if strings.HasPrefix(line, "/") {
			anchored, line = true, line[1:]
		}
	}
	if strings.HasSuffix(line, "/") {
		lit.dirOnly, line = true, line[:len(line)-1]
		line = strings.TrimSuffix(line, "\\") // an escaped trailing slash is one too
	}
	glob = line
	if !anchored && !strings.Contains(line, "/") && !strings.HasPrefix(line, "**/") && line != "**" {
		glob = "**/" + line
	}
	if strings.HasSuffix(glob, "/**") {
		glob += "/*"
	}
	return glob, lit, true
}

// trimIgnoreLine drops a line's trailing whitespace (a CRLF file's "\r"
// too), unless it ends in an escaped space ("\ "), as ripgrep does.
func trimIgnoreLine(line string) string {
	if strings.HasSuffix(line, "\\ ") {
		return line
	}
	return strings.TrimRightFunc(line, unicode.IsSpace)
}

// ignoreGlob is a compiled glob: its states in order, the state after
// the last one accepting. A state consumes one byte and moves to the next
// one, or (star, any, split) also moves on without consuming.
type ignoreGlob []globState

type globState struct {
	kind  globKind
	b     byte     // byteState's byte
	jump  int32    // splitState's other next state
	class *byteSet // classState's bytes
}

type globKind uint8

const (
	byteState  globKind = iota // the byte b
	oneState                   // "?": one byte but a slash
	classState                 // "[...]": one byte of class (never a slash)
	starState                  // "*": any bytes but slashes, staying
	anyState                   // "**": any bytes, staying
	splitState                 // moves on to the next state and to jump without consuming
)

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) addRange(lo, hi int) {
	for c := lo; c <= hi; c++ {
		s.add(byte(c))
	}
}

// compileIgnoreGlob compiles a glob of ignoreLine: "*" any bytes but a
// slash, "?" one byte but a slash, "[...]" one byte of a class ("!" or "^"
// first negates it; a "]" first is one of its bytes; "a-z" a range; never
// a slash), "\x" the byte x, and "**" as a whole name: "**/" at the start
// is any leading directories (none too), "/**/" any directories between
// (none too), "/**" at the end anything below; "**" alone anything. Any other run of stars is one star. Like ripgrep, it refuses
// (ok false: the line matches nothing) a glob ending in a lone backslash
// or with a class left open. Classes and "?" match bytes, so "?" is not
// one "é".
func compileIgnoreGlob(glob string) (g ignoreGlob, ok bool) {
	g = make(ignoreGlob, 0, len(glob)+2) // a state a byte at most, and a group's two more
	for i := 0; i < len(glob); {
		c := glob[i]
		switch c {
		case '\\':
			if i+1 == len(glob) {
				return nil, false
			}
			g = append(g, globState{kind: byteState, b: glob[i+1]})
			i += 2
		case '?':
			g = append(g, globState{kind: oneState})
			i++
		case '[':
			class, end, ok := readClass(glob, i)
			if !ok {
				return nil, false
			}
			g = append(g, globState{kind: classState, class: class})
			i = end
		case '*':
			run := i
			for i < len(glob) && glob[i] == '*' {
				i++
			}
			whole := i-run == 2 && (run == 0 || glob[run-1] == '/') && (i == len(glob) || glob[i] == '/')
			switch {
			case !whole:
				g = append(g, globState{kind: starState})
			case run == 0 && i == len(glob): // "**"
				g = append(g, globState{kind: anyState})
			case run == 0: // "**/x": any leading directories, or none
				i++ // the slash is in the group
				g = g.optionalDirs()
			case i == len(glob): // "x/**": anything below x (its slash is already there)
				g = append(g, globState{kind: anyState})
			default: // "x/**/y": the slash before is there; then any directories, or none
				i++
				g = g.optionalDirs()
			}
		default:
			g = append(g, globState{kind: byteState, b: c})
			i++
		}
	}
	return g[:len(g):len(g)], true
}

// optionalDirs appends "(any bytes, then a slash)?": directories, or none.
func (g ignoreGlob) optionalDirs() ignoreGlob {
	split := len(g)
	g = append(g, globState{kind: splitState}, globState{kind: anyState}, globState{kind: byteState, b: '/'})
	g[split].jump = int32(len(g))
	return g
}

// readClass reads the class that starts at glob[start] ("["), and returns
// its bytes and the index after its "]"; ok false when it is left open.
func readClass(glob string, start int) (*byteSet, int, bool) {
	i := start + 1
	negated := i < len(glob) && (glob[i] == '!' || glob[i] == '^')
	if negated {
		i++
	}
	var set byteSet
	first := true
	for ; i < len(glob); i++ {
		c := glob[i]
		if c == ']' && !first {
			if negated {
				for b := range 256 {
					set[b>>6] ^= 1 << (b & 63)
				}
			}
			set[0] &^= 1 << '/' // a class never matches a slash
			return &set, i + 1, true
		}
		first = false
		if c == '\\' && i+1 < len(glob) {
			i++
			c = glob[i]
		}
		if i+2 < len(glob) && glob[i+1] == '-' && glob[i+2] != ']' {
			hi := glob[i+2]
			if hi == '\\' && i+3 < len(glob) {
				hi = glob[i+3]
				i++
			}
			set.addRange(int(c), int(hi))
			i += 2
			continue
		}
		set.add(c)
	}
	return nil, 0, false
}

// match reports whether the glob matches all of path.
func (g ignoreGlob) match(path string) bool {
	var small [2][4]uint64 // most globs have fewer than 256 states: no allocation
	cur, next := small[0][:], small[1][:]
	if words := (len(g) + 1 + 63) / 64; words > len(cur) {
		cur, next = make([]uint64, words), make([]uint64, words)
	}
	set := func(s []uint64, i int) { s[i>>6] |= 1 << (i & 63) }
	has := func(s []uint64, i int) bool { return s[i>>6]&(1<<(i&63)) != 0 }
	// closure adds the states reached without consuming; every such move
	// goes forward, so one pass in order reaches them all.
	closure := func(s []uint64) {
		for i, st := range g {
			if !has(s, i) {
				continue
			}
			switch st.kind {
			case starState, anyState:
				set(s, i+1)
			case splitState:
				set(s, i+1)
				set(s, int(st.jump))
			}
		}
	}
	set(cur, 0)
	closure(cur)
	for k := 0; k < len(path); k++ {
		c := path[k]
		clear(next)
		alive := false
		for i, st := range g {
			if !has(cur, i) {
				continue
			}
			switch st.kind {
			case byteState:
				if c == st.b {
					set(next, i+1)
					alive = true
				}
			case oneState:
				if c != '/' {
					set(next, i+1)
					alive = true
				}
			case classState:
				if st.class.has(c) {
					set(next, i+1)
					alive = true
				}
			case starState:
				if c != '/' {
					set(next, i)
					alive = true
				}
			case anyState:
				set(next, i)
				alive = true
			}
		}
		if !alive {
			return false
		}
		closure(next)
		cur, next = next, cur
	}
	return has(cur, len(g))
}
