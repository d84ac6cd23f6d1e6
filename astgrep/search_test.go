package astgrep

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// search runs Search over a workspace made of a txtar archive, with no
// parse cache (as the CLI runs).
func search(t *testing.T, dir string, q Query) (*Result, error) {
	t.Helper()
	return Search(context.Background(), engine.Env{Snapshot: dirSnapshot(t, dir), Encoding: workspace.UTF16}, q)
}

// dirSnapshot is a snapshot of one folder, dir, with no open documents.
func dirSnapshot(t *testing.T, dir string) *workspace.Snapshot {
	t.Helper()
	folder, err := workspace.NewFolder(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	return workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
}

func intp(n int) *int { return &n }

// pagingTree has 2 + 3 + 1 calls of f, in files that sort a < b < c.
const pagingTree = `
-- b.go --
package p
func _() { f(3); f(4); f(5) }
-- a.go --
package p
func _() { f(1); f(2) }
-- c/c.go --
package p
func _() { f(6) }
`

// TestSearchPaging: whatever the page, matchCount counts every match, and
// the page holds exactly the matches [skip, skip+limit) in the order
// (folder, path, pre-order) — built by the second pass for bounded pages,
// by the first for unbounded ones.
func TestSearchPaging(t *testing.T) {
	dir := testutil.WriteTree(t, pagingTree)
	tests := []struct {
		skip     int
		limit    *int
		want     string // the matches' texts
		nextSkip *int
	}{
		{0, nil, "f(1) f(2) f(3) f(4) f(5) f(6)", nil},
		{0, intp(0), "f(1) f(2) f(3) f(4) f(5) f(6)", nil},
		{0, intp(1), "f(1)", intp(1)},
		{1, intp(2), "f(2) f(3)", intp(3)},
		{2, intp(3), "f(3) f(4) f(5)", intp(5)},
		{4, intp(0), "f(5) f(6)", nil},
		{5, intp(5), "f(6)", nil},
		{6, intp(5), "", nil},
		{1 << 62, intp(50), "", nil},
		{int(^uint(0) >> 1), intp(1 << 30), "", nil}, // skip+limit would overflow
	}
	for _, tt := range tests {
		res, err := search(t, dir, Query{Pattern: "f($A)", Lang: "go", Skip: tt.skip, Limit: tt.limit})
		if err != nil {
			t.Fatalf("skip %d: %v", tt.skip, err)
		}
		var texts []string
		for _, m := range res.Matches {
			texts = append(texts, m.Text)
		}
		if got := strings.Join(texts, " "); got != tt.want {
			t.Errorf("skip %d limit %v: matches %q; want %q", tt.skip, tt.limit, got, tt.want)
		}
		if res.MatchCount != 6 || res.FileCount != 3 {
			t.Errorf("skip %d limit %v: matchCount %d, fileCount %d; want 6, 3", tt.skip, tt.limit, res.MatchCount, res.FileCount)
		}
		if !cmp.Equal(res.NextSkip, tt.nextSkip) || res.LimitReached != (tt.nextSkip != nil) {
			t.Errorf("skip %d limit %v: nextSkip %v limitReached %v; want %v", tt.skip, tt.limit, res.NextSkip, res.LimitReached, tt.nextSkip)
		}
		for _, m := range res.Matches {
			if m.MetaVariables["A"].(Capture).Text != strings.TrimSuffix(strings.TrimPrefix(m.Text, "f("), ")") {
				t.Errorf("match %s binds A=%v", m.Text, m.MetaVariables["A"])
			}
		}
	}
}

// TestSearchListsAreArrays: every list field of the result is a JSON
// array, never null, even when empty.
func TestSearchListsAreArrays(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage p\n")
	res, err := search(t, dir, Query{Pattern: "nothing($A)", Lang: "go"})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"matches", "parseErrors", "warnings", "missingPaths"} {
		if got := string(fields[name]); got != "[]" {
			t.Errorf("%s is %s; want []", name, got)
		}
	}
	// A match's own lists, without contextLines.
	res, err = search(t, testutil.WriteTree(t, "-- a.go --\npackage p\nfunc _() { f(1) }\n"), Query{Pattern: "f($A)", Lang: "go"})
	if err != nil || len(res.Matches) != 1 {
		t.Fatalf("%v, %+v", err, res)
	}
	raw, _ = json.Marshal(res.Matches[0])
	if !strings.Contains(string(raw), `"contextBefore":[],"contextAfter":[]`) {
		t.Errorf("match %s; want contextBefore and contextAfter as []", raw)
	}
}

// TestSearchReportsPaths: entries of `paths` that do not exist are listed in
// missingPaths (and when none exists, the query is an error); a file named
// explicitly that cannot be searched (binary, unreadable) gets a warning
// instead of silence, while the same file found by walking is passed over.
func TestSearchReportsPaths(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage p\nfunc _() { f(1) }\n-- bin.go --\nf(2)\x00\n-- locked.go --\npackage p\nfunc _() { f(2) }\n")
	if err := os.Chmod(filepath.Join(dir, "locked.go"), 0); err != nil {
		t.Fatal(err)
	}
	res, err := search(t, dir, Query{Pattern: "f($A)", Lang: "go", Scope: workspace.Scope{Paths: []string{"a.go", "nope.go", "gone/"}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"nope.go", "gone/"}; !slices.Equal(res.MissingPaths, want) || res.MatchCount != 1 {
		t.Errorf("missingPaths %q, matchCount %d; want %q and 1", res.MissingPaths, res.MatchCount, want)
	}
	if _, err := search(t, dir, Query{Pattern: "f($A)", Lang: "go", Scope: workspace.Scope{Paths: []string{"nope.go"}}}); err == nil || !strings.Contains(err.Error(), "nope.go") {
		t.Errorf("only a missing path: error %v; want one naming nope.go", err)
	}
	named := []string{"bin.go"}
	if os.Geteuid() != 0 { // root reads a file whatever its mode
		named = append(named, "locked.go")
	}
	res, err = search(t, dir, Query{Pattern: "f($A)", Lang: "go", Scope: workspace.Scope{Paths: append(slices.Clone(named), "a.go")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != len(named) {
		t.Errorf("warnings %q; want one for each of %q", res.Warnings, named)
	}
	for i, name := range named {
		if i < len(res.Warnings) && !strings.HasPrefix(res.Warnings[i], name+" was not searched") {
			t.Errorf("warning %q; want it to say %s was not searched", res.Warnings[i], name)
		}
	}
	if res, err = search(t, dir, Query{Pattern: "f($A)", Lang: "go"}); err != nil || len(res.Warnings) != 0 {
		t.Errorf("walking: warnings %q, error %v; want none", res.Warnings, err)
	}
}

// TestSearchWarnsOfBrokenPattern: a pattern whose matched part holds a
// syntax error is searched as parsed (ast-grep 0.51.1 finds the same: none
// for `func (`, the line for `let x = 1 +;`), with a warning that says where
// the error is and suggests a larger pattern plus a selector. A pattern no
// language compiles is an input error.
func TestSearchWarnsOfBrokenPattern(t *testing.T) {
	dir := testutil.WriteTree(t, `
-- a.go --
package p

func (s *S) M() { f(1) }
-- b.js --
let x = 1 +;
if (x) { y }
-- c.py --
def f(a):
    pass
`)
	tests := []struct {
		pattern, lang string
		matches       int
		warning       string // a substring of the one warning; "" = no warning
	}{
		{"func (", "go", 0, `"func (" at line 1, column 1 is a syntax error`},
		{"f($A)", "go", 1, ""}, // an ERROR above the call does not count: the call is matched
		{"let x = 1 +;", "javascript", 1, `"+" at line 1, column 11 is a syntax error`},
		{"let x = 1 +\n  ;", "javascript", 1, `"+" at line 1, column 11 is a syntax error`},
		{"f($A", "python", 0, `"f($A" at line 1, column 1 is a syntax error`},
		{"if (x) {\n  y", "javascript", 1, `"}" is missing at line 2, column 4; it was matched as if it were there`},
		{"def f($A):\n  pass", "python", 1, ""},
	}
	for _, tt := range tests {
		res, err := search(t, dir, Query{Pattern: tt.pattern, Lang: tt.lang})
		if err != nil {
			t.Errorf("%q: %v", tt.pattern, err)
			continue
		}
		if res.MatchCount != tt.matches {
			t.Errorf("%q: %d matches; want %d", tt.pattern, res.MatchCount, tt.matches)
		}
		switch {
		case tt.warning == "" && len(res.Warnings) > 0:
			t.Errorf("%q: warnings %q; want none", tt.pattern, res.Warnings)
		case tt.warning != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], tt.warning)):
			t.Errorf("%q: warnings %q; want one holding %q", tt.pattern, res.Warnings, tt.warning)
		case strings.Contains(tt.warning, "syntax error") && !strings.Contains(res.Warnings[0], "selector"):
			t.Errorf("%q: warning %q; want a hint to use a selector", tt.pattern, res.Warnings[0])
		}
	}
	var input *workspace.InputError
	if _, err := search(t, dir, Query{Pattern: "$$$A", Lang: "go"}); !errors.As(err, &input) {
		t.Errorf("a pattern no language compiles: error %v; want an InputError (InvalidParams)", err)
	}
}

// TestSearchSkipsTooLargeFile: a file over maxFileSize is not searched,
// and its parse issue says how to search it.
func TestSearchSkipsTooLargeFile(t *testing.T) {
	dir := testutil.WriteTree(t, "-- big.go --\npackage p\nfunc _() { f(1); f(2); f(3) }\n-- small.go --\nf(1)\n")
	snap := dirSnapshot(t, dir)
	snap.Settings.MaxFileSize = 20
	res, err := Search(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{Pattern: "f($A)", Lang: "go"})
	if err != nil {
		t.Fatal(err)
	}
	want := "skipped: big.go (40 bytes): file is larger than maxFileSize (raise the maxFileSize setting to search it)"
	if len(res.ParseErrors) != 1 || res.ParseErrors[0].Path != "big.go" || res.ParseErrors[0].Message != want {
		t.Errorf("parseErrors %+v; want big.go's %q", res.ParseErrors, want)
	}
}
