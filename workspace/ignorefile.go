package workspace

import (
	"bytes"
	"fmt"
	"strings"

	gitignore "github.com/boyter/gocodewalker/go-gitignore"
	"github.com/danwakefield/fnmatch"
)

// ignoreFile is one .gitignore (or .ignore, or .git/info/exclude): which
// of the paths below its directory it ignores, and which it re-includes.
//
// go-gitignore tries every pattern, last to first, on every path the walk
// meets, each through fnmatch rune by rune: on git's tree, whose root
// .gitignore has 232 literal lines (`/git-add`) among its 263, that was a
// sixth of a search's CPU time. So the plain lines are matched here: the
// literal ones looked up in maps, `*.o` by the name's suffix, `dir/**` by
// the path's prefix; go-gitignore gets the others (the plain lines
// blanked, so each pattern keeps its line number), and the pattern on the
// highest line that matches decides, as go-gitignore decides by its order.
// A line is plain only when what is done here is what fnmatch would say
// (plainPattern), or what git says where go-gitignore differs: `dir/**`
// is what is inside dir, not dir itself, and an anchored name with
// wildcards (`/*.txt`, `/*`) stops at a slash, where
// go-gitignore let `/*.txt` ignore sub/a.txt and the usual `/*` + `!/src`
// keep nothing of src. A file whose lines could read otherwise one by one
// (a carriage return, a line ending in a backslash) is go-gitignore's.
type ignoreFile struct {
	base  string               // the directory the patterns are relative to
	rules gitignore.GitIgnore  // the patterns that are not literal
	names map[string][]literal // unanchored patterns without a slash: a file or directory of that name at any depth
	paths map[string][]literal // anchored or slashed patterns: the path relative to base
	// suffixes are the unanchored patterns "*" and a literal without a
	// slash: a file or directory whose name ends so, at any depth. Last line first.
	suffixes []textPattern
	// prefixes are the patterns "name/**" and "/path/**": whatever is
	// inside that directory, held with its slash (byPrefix). Last line first.
	prefixes []textPattern
	// globs are the anchored names with wildcards (byGlob). Last line first.
	globs []textPattern
}

// textPattern is a line of suffixes, prefixes or globs: its suffix,
// prefix or glob, and its line and flags.
type textPattern struct {
	text string
	literal
}

// How plainPattern reads a line.
type patternKind int

const (
	notPlain patternKind = iota // go-gitignore's
	byName                      // equal to the last name of the path
	byPath                      // equal to the whole path relative to base
	bySuffix                    // "*" and a literal: a suffix of the last name
	byPrefix                    // a literal and "/**": a prefix of the whole path
	byGlob                      // an anchored name with wildcards: the whole path, a wildcard stopping at a slash
)

// literal is one literal pattern's line (1-based) and flags. The lists in
// ignoreFile's maps go from the last line to the first.
type literal struct {
	line    int
	negated bool // "!name": re-includes
	dirOnly bool // "name/": matches directories only
}

// Bounds on one ignore file, which anyone who can write to the tree
// controls: go-gitignore holds about a kilobyte for each pattern it is
// given (a 50 MB .gitignore of 2.1 million `p0*[ab]/**/q0` lines took 2 GB
// and ended the process), a literal line about a tenth of that.
const (
	maxIgnorePatterns   = 1_000_000
	maxWildcardPatterns = 100_000
)

// newIgnoreFile reads the patterns of an ignore file, relative to the
// directory base. A file with more patterns than the bounds above is an
// error, which says what to do.
func newIgnoreFile(data []byte, base string) (*ignoreFile, error) {
	f := &ignoreFile{base: base}
	patterns, wildcards := 0, 0
	isPattern := func(line string) bool {
		line = strings.TrimSpace(line)
		return line != "" && line[0] != '#'
	}
	if bytes.IndexByte(data, '\r') < 0 && !bytes.Contains(data, []byte("\\\n")) && !bytes.HasSuffix(data, []byte("\\")) {
		lines := strings.Split(string(data), "\n")
		for i := len(lines) - 1; i >= 0; i-- { // last line first, for the lists' order
			if !isPattern(lines[i]) {
				continue
			}
			patterns++
			body, lit, kind := plainPattern(lines[i])
			lit.line = i + 1
			switch kind {
			case notPlain:
				wildcards++
				continue
			case byGlob:
				f.globs = append(f.globs, textPattern{body, lit})
			case bySuffix:
				f.suffixes = append(f.suffixes, textPattern{body, lit})
			case byPrefix:
				f.prefixes = append(f.prefixes, textPattern{body, lit})
			default:
				f.add(body, lit, kind == byPath)
			}
			lines[i] = ""
		}
		data = []byte(strings.Join(lines, "\n"))
	} else {
		for line := range strings.Lines(string(data)) {
			if isPattern(line) {
				patterns++
				wildcards++
			}
		}
	}
	if patterns > maxIgnorePatterns || wildcards > maxWildcardPatterns {
		return nil, fmt.Errorf("it has %d patterns, %d of them with wildcards: structls reads at most %d, and %d with wildcards; shorten it, or do not honour ignore files (--no-ignore)",
			patterns, wildcards, maxIgnorePatterns, maxWildcardPatterns)
	}
	f.rules = gitignore.New(bytes.NewReader(data), base, func(gitignore.Error) bool { return true })
	return f, nil
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

// plainPattern reads line as a plain pattern: an optional "!", an
// optional leading "/" (anchored), a body of letters, digits, "._-+@=,%~"
// and single inner slashes, an optional trailing "/". The body is compared
// with the whole path relative to the file's directory when anchored or
// with a slash inside (byPath), otherwise with the last name (byName); an
// unanchored body without a slash may also start with one "*" (bySuffix,
// the body returned without it), and any body end with "/**" (byPrefix:
// what is inside the directory, as git has it, not the directory itself,
// which go-gitignore matched too; the body returned with its slash). An
// anchored body of any characters but slashes, backslashes and spaces with
// one of "*?[" and no "**" is byGlob (`/*.txt`, `/*`). Any other line
// (other wildcards, escapes, spaces, comments, blank lines) is notPlain:
// go-gitignore matches it.
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
	if anchored && s != "" && !strings.ContainsAny(s, "/\\ \t") && !strings.Contains(s, "**") && strings.ContainsAny(s, "*?[") {
		return s, lit, byGlob
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
	best = lastMatching(f.globs, best, isDir, func(glob string) bool { return fnmatch.Match(glob, rel, fnmatch.FNM_PATHNAME) })
	if m := f.rules.Relative(rel, isDir); m != nil && m.Position().Line > best.line {
		return true, m.Ignore()
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
