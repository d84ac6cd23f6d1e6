package workspace

import (
	"bytes"
	"fmt"
	"strings"
)

// ignoreFile is one .gitignore (or .ignore, or .git/info/exclude): which
// of the paths below its directory it ignores, and which it re-includes.
// Its lines are read as ripgrep reads them (ignoreLine), and the pattern
// on the highest line that matches a path decides.
//
// Most lines are plain (plainPattern) and matched without a glob: on
// git's tree, whose root .gitignore has 232 literal lines (`/git-add`)
// among its 263, trying every pattern on every path the walk meets was a
// sixth of a search's CPU time. The literal ones are looked up in maps,
// `*.o` by the name's suffix, `dir/**` by the path's prefix. The others
// are compiled (ignoreGlob) and tried last line first.
type ignoreFile struct {
	base  string               // the directory the patterns are relative to
	names map[string][]literal // unanchored patterns without a slash: a file or directory of that name at any depth
	paths map[string][]literal // anchored or slashed patterns: the path relative to base
	// suffixes are the unanchored patterns "*" and a literal without a
	// slash: a file or directory whose name ends so, at any depth. Last line first.
	suffixes []textPattern
	// prefixes are the patterns "name/**" and "/path/**": whatever is
	// inside that directory, held with its slash (byPrefix). Last line first.
	prefixes []textPattern
	// globs are the other patterns, compiled. Last line first.
	globs []globPattern
}

// textPattern is a line of suffixes or prefixes: its suffix or prefix, and
// its line and flags.
type textPattern struct {
	text string
	literal
}

// globPattern is a line of globs: its glob, matched against the path
// relative to the file's directory, and its line and flags.
type globPattern struct {
	glob ignoreGlob
	literal
}

// How plainPattern reads a line.
type patternKind int

const (
	notPlain patternKind = iota // a glob to compile
	byName                      // equal to the last name of the path
	byPath                      // equal to the whole path relative to base
	bySuffix                    // "*" and a literal: a suffix of the last name
	byPrefix                    // a literal and "/**": a prefix of the whole path
)

// literal is one pattern's line (1-based) and flags. The lists in
// ignoreFile go from the last line to the first.
type literal struct {
	line    int
	negated bool // "!name": re-includes
	dirOnly bool // "name/": matches directories only
}

// Bounds on one ignore file, which anyone who can write to the tree
// controls: a compiled glob holds some 16 bytes a character of its
// pattern, a literal line its text and a map entry.
const (
	maxIgnorePatterns   = 1_000_000
	maxWildcardPatterns = 100_000
	maxWalkGlobs        = 200_000 // in all the ignore files one walk reads
)

// newIgnoreFile reads the patterns of an ignore file, relative to the
// directory base. A file with more patterns than the bounds above is an
// error, which says what to do.
func newIgnoreFile(data []byte, base string) (*ignoreFile, error) {
	f := &ignoreFile{base: base}
	patterns, wildcards := 0, 0
	var pending []pendingGlob
	lines := strings.Split(string(bytes.TrimPrefix(data, []byte("\uFEFF"))), "\n")
	for i := len(lines) - 1; i >= 0; i-- { // last line first, for the lists' order
		line := trimIgnoreLine(lines[i])
		if line == "" || line[0] == '#' {
			continue
		}
		patterns++
		body, lit, kind := plainPattern(line)
		lit.line = i + 1
		switch kind {
		case notPlain:
			wildcards++
			if wildcards <= maxWildcardPatterns {
				pending = append(pending, pendingGlob{line, i + 1})
			}
		case bySuffix:
			f.suffixes = append(f.suffixes, textPattern{body, lit})
		case byPrefix:
			f.prefixes = append(f.prefixes, textPattern{body, lit})
		default:
			f.add(body, lit, kind == byPath)
		}
	}
	if patterns > maxIgnorePatterns || wildcards > maxWildcardPatterns {
		return nil, fmt.Errorf("it has %d patterns, %d of them with wildcards: structls reads at most %d, and %d with wildcards; shorten it, or do not honour ignore files (--no-ignore)",
			patterns, wildcards, maxIgnorePatterns, maxWildcardPatterns)
	}
	f.globs = make([]globPattern, 0, len(pending))
	for _, p := range pending { // compiled once the file is known to be within the bounds
		glob, lit, _ := ignoreLine(p.text)
		lit.line = p.line
		if g, ok := compileIgnoreGlob(glob); ok {
			f.globs = append(f.globs, globPattern{g, lit})
		}
	}
	return f, nil
}

// pendingGlob is a line to compile into globs: its text and its number.
type pendingGlob struct {
	text string
	line int
}

// add files a literal pattern under its body: in paths when it is matched
// against the whole relative path (anchored, or with a slash inside),
// otherwise in names.
func (f *ignoreFile) add(body string, lit literal, wholePath bool) {
	m := &f.names
	if wholePath {
		m = &f.paths
	}
	if *m == nil {
		*m = map[string][]literal{}
	}
	(*m)[body] = append((*m)[body], lit)
}

// plainPattern reads line (trimmed as ignoreLine trims it) as a plain
// pattern: an optional "!", an optional leading "/" (anchored), a body of
// letters, digits, "._-+@=,%~" and single inner slashes, an optional
// trailing "/". The body is compared with the whole path relative to the
// file's directory when anchored or with a slash inside (byPath),
// otherwise with the last name (byName); an unanchored body without a
// slash may also start with one "*" (bySuffix, the body returned without
// it), and any body end with "/**" (byPrefix: what is inside the
// directory, not the directory itself; the body returned with its slash).
// Any other line is notPlain: a glob to compile.
func plainPattern(line string) (body string, lit literal, kind patternKind) {
	s := line
	if strings.HasPrefix(s, "!") {
		lit.negated, s = true, s[1:]
	}
	anchored := strings.HasPrefix(s, "/")
	s = strings.TrimPrefix(s, "/")
	if strings.HasSuffix(s, "/") {
		lit.dirOnly, s = true, s[:len(s)-1]
	}
	star := !anchored && strings.HasPrefix(s, "*")
	if star {
		s = s[1:]
	}
	inside := !star && strings.HasSuffix(s, "/**")
	if inside {
		s = s[:len(s)-len("/**")]
	}
	if s == "" || s[0] == '/' || s[len(s)-1] == '/' || strings.Contains(s, "//") {
		return "", literal{}, notPlain
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		plain := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._-+@=,%~/", c) >= 0
		if !plain {
			return "", literal{}, notPlain
		}
	}
	switch {
	case star && strings.IndexByte(s, '/') >= 0:
		return "", literal{}, notPlain
	case star:
		return s, lit, bySuffix
	case inside:
		return s + "/", lit, byPrefix
	case anchored || strings.IndexByte(s, '/') >= 0:
		return s, lit, byPath
	}
	return s, lit, byName
}

// match reports whether a pattern of the file matches the path abs (a
// directory when isDir), and if so whether that pattern ignores it (or,
// negated, re-includes it). Paths outside the file's directory match nothing.
func (f *ignoreFile) match(abs string, isDir bool) (matched, ignore bool) {
	if len(abs) <= len(f.base) || !strings.HasPrefix(abs, f.base) {
		return false, false
	}
	rel := abs[len(f.base)+1:]
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	best := firstApplying(f.paths[rel], isDir)
	if byName := firstApplying(f.names[name], isDir); byName.line > best.line {
		best = byName
	}
	best = lastMatching(f.suffixes, best, isDir, func(suffix string) bool { return strings.HasSuffix(name, suffix) })
	best = lastMatching(f.prefixes, best, isDir, func(prefix string) bool { return strings.HasPrefix(rel, prefix) })
	for _, g := range f.globs {
		if g.line <= best.line {
			break
		}
		if (!g.dirOnly || isDir) && g.glob.match(rel) {
			best = g.literal
			break
		}
	}
	return best.line > 0, best.line > 0 && !best.negated
}

// lastMatching is the pattern of list (the last in the file first) on the
// highest line after best's that applies to a directory (isDir) or a file
// and that matches, or best when none does.
func lastMatching(list []textPattern, best literal, isDir bool, matches func(string) bool) literal {
	for _, p := range list {
		if p.line <= best.line {
			break
		}
		if (!p.dirOnly || isDir) && matches(p.text) {
			return p.literal
		}
	}
	return best
}

// firstApplying is the first of lits (the last in the file) that applies
// to a directory (isDir) or a file; line 0 for none.
func firstApplying(lits []literal, isDir bool) literal {
	for _, l := range lits {
		if !l.dirOnly || isDir {
			return l
		}
	}
	return literal{}
}
