package rules

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// fileFilter is a rule's `files` and `ignores`: globs over the file's path
// relative to the project directory, with ast-grep's (globset's) meaning:
// `*` also crosses `/`, `**` is any depth.
type fileFilter struct {
	files, ignores []*regexp.Regexp
}

// keeps reports whether a rule with this filter runs on rel.
func (f *fileFilter) keeps(rel string) bool {
	if f == nil {
		return true
	}
	for _, g := range f.ignores {
		if g.MatchString(rel) {
			return false
		}
	}
	if len(f.files) == 0 {
		return true
	}
	for _, g := range f.files {
		if g.MatchString(rel) {
			return true
		}
	}
	return false
}

func (ld *loader) compileFileFilter(c *compiler, files, ignores *yamlValue) (*fileFilter, error) {
	if files == nil && ignores == nil {
		return nil, nil
	}
	f := &fileFilter{}
	for _, x := range []struct {
		v   *yamlValue
		dst *[]*regexp.Regexp
	}{{files, &f.files}, {ignores, &f.ignores}} {
		if x.v == nil || x.v.kind == yamlNull {
			continue
		}
		if x.v.kind != yamlSeq {
			return nil, c.errorf(x.v, "a list of globs (or {glob, caseInsensitive}) is expected, not %s", x.v.describe())
		}
		for _, item := range x.v.items {
			re, err := c.compileGlobItem(item)
			if err != nil {
				return nil, err
			}
			*x.dst = append(*x.dst, re)
		}
	}
	return f, nil
}

func (c *compiler) compileGlobItem(item *yamlValue) (*regexp.Regexp, error) {
	glob, fold := "", false
	switch item.kind {
	case yamlScalar:
		glob = item.text
	case yamlMap:
		if err := c.ignoreUnknownKeys(item, "a glob", []string{"glob", "caseInsensitive"}); err != nil {
			return nil, err
		}
		g := item.get("glob")
		if g == nil {
			return nil, c.errorf(item, "a glob object needs `glob`")
		}
		var err error
		if glob, err = c.stringValue(g); err != nil {
			return nil, err
		}
		if ci := item.get("caseInsensitive"); ci != nil {
			if fold, err = c.boolValue(ci); err != nil {
				return nil, err
			}
		}
	default:
		return nil, c.errorf(item, "a glob is a string or {glob, caseInsensitive}, not %s", item.describe())
	}
	re, err := globRegexp(glob, fold)
	if err != nil {
		return nil, c.errorf(item, "%v", err)
	}
	return re, nil
}

// globRegexp translates a globset glob into an anchored regexp.
func globRegexp(glob string, fold bool) (*regexp.Regexp, error) {
	var b strings.Builder
	if fold {
		b.WriteString("(?i)")
	}
	b.WriteString("^")
	depth := 0 // inside {a,b}
	for i := 0; i < len(glob); i++ {
		ch := glob[i]
		switch {
		case ch == '*' && strings.HasPrefix(glob[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case ch == '*':
			b.WriteString(".*")
			for i+1 < len(glob) && glob[i+1] == '*' {
				i++
			}
		case ch == '?':
			b.WriteString(".")
		case ch == '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("cannot parse glob pattern %q: unclosed [", glob)
			}
			class := glob[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += end + 1
		case ch == '{':
			depth++
			b.WriteString("(?:")
		case ch == '}' && depth > 0:
			depth--
			b.WriteString(")")
		case ch == ',' && depth > 0:
			b.WriteString("|")
		case ch == '\\' && i+1 < len(glob):
			i++
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		default:
			b.WriteString(regexp.QuoteMeta(string(ch)))
		}
	}
	if depth > 0 {
		return nil, fmt.Errorf("cannot parse glob pattern %q: unclosed {", glob)
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("cannot parse glob pattern %q: %v", glob, err)
	}
	return re, nil
}

// relPath returns path relative to base as a slash path ("" base: path as
// given, made slash).
func relPath(base, path string) string {
	if base != "" && filepath.IsAbs(path) {
		if r, err := filepath.Rel(base, path); err == nil {
			path = r
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(path), "./")
}
