package workspace

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// globFilter applies the `globs` of a command and the configured excludes.
//
// The semantics are ripgrep's -g: a glob without a slash matches a file's
// name at any depth ("*.go", "!*_test.go"); a glob with a slash matches the
// path relative to the workspace folder ("src/**/*.ts"). An exclude also
// prunes the directories it matches ("!vendor"). When any include glob is
// given, a file must match one of them.
type globFilter struct {
	include, exclude []string
}

func newGlobFilter(globs, excludes []string) globFilter {
	var g globFilter
	for _, raw := range globs {
		if neg, ok := strings.CutPrefix(raw, "!"); ok {
			g.exclude = append(g.exclude, normalizeGlob(neg))
		} else if raw != "" {
			g.include = append(g.include, normalizeGlob(raw))
		}
	}
	for _, ex := range excludes {
		g.exclude = append(g.exclude, normalizeGlob(ex))
	}
	return g
}

// normalizeGlob strips a leading "./" or "/" (both mean the folder root).
func normalizeGlob(g string) string {
	g = strings.TrimPrefix(g, "./")
	if strings.HasPrefix(g, "/") {
		return strings.TrimPrefix(g, "/")
	}
	return g
}

func globMatches(glob, rel string) bool {
	if !strings.Contains(glob, "/") {
		ok, _ := doublestar.Match(glob, path.Base(rel))
		return ok
	}
	ok, _ := doublestar.Match(glob, rel)
	return ok
}

// keeps reports whether the file at rel (relative to its folder) passes.
func (g globFilter) keeps(rel string) bool {
	for _, ex := range g.exclude {
		if globMatches(ex, rel) {
			return false
		}
	}
	if len(g.include) == 0 {
		return true
	}
	for _, in := range g.include {
		if globMatches(in, rel) {
			return true
		}
	}
	return false
}

// excludesDir reports whether an exclude glob prunes the directory at rel.
func (g globFilter) excludesDir(rel string) bool {
	for _, ex := range g.exclude {
		if globMatches(strings.TrimSuffix(ex, "/"), rel) || globMatches(strings.TrimSuffix(ex, "/**"), rel) {
			return true
		}
	}
	return false
}

// ValidateGlobs returns an error naming the first malformed glob.
func ValidateGlobs(globs []string) error {
	for _, g := range globs {
		if !doublestar.ValidatePattern(normalizeGlob(strings.TrimPrefix(g, "!"))) {
			return &PathError{Msg: "invalid glob " + `"` + g + `"` + ": check its brackets and braces"}
		}
	}
	return nil
}
