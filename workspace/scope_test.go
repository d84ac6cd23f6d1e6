package workspace

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestScopeWalkOptions: ignore files are honoured and hidden files included
// unless the request turns them off, and the globs are passed on.
func TestScopeWalkOptions(t *testing.T) {
	no, yes := false, true
	for _, tc := range []struct {
		scope Scope
		want  WalkOptions
	}{
		{Scope{}, WalkOptions{Gitignore: true, Hidden: true}},
		{Scope{Gitignore: &no}, WalkOptions{Hidden: true}},
		{Scope{Hidden: &no}, WalkOptions{Gitignore: true}},
		{Scope{Gitignore: &yes, Hidden: &yes, Globs: []string{"*.go"}}, WalkOptions{Globs: []string{"*.go"}, Gitignore: true, Hidden: true}},
	} {
		got := tc.scope.WalkOptions()
		if got.Gitignore != tc.want.Gitignore || got.Hidden != tc.want.Hidden || !slices.Equal(got.Globs, tc.want.Globs) {
			t.Errorf("%+v.WalkOptions() = %+v; want %+v", tc.scope, got, tc.want)
		}
	}
}

// TestScopeEmbeddedJSON: a query embedding Scope reads and writes the
// scope's fields at the top level, in the order they stand in the struct,
// as when they were written out in each query.
func TestScopeEmbeddedJSON(t *testing.T) {
	type query struct {
		Pattern string `json:"pattern"`
		Scope
		Skip int `json:"skip,omitempty"`
	}
	in := `{"pattern":"p","paths":["a.go"],"globs":["!*_test.go"],"gitignore":false,"hidden":true,"skip":2}`
	var q query
	if err := json.Unmarshal([]byte(in), &q); err != nil {
		t.Fatal(err)
	}
	if opts := q.WalkOptions(); opts.Gitignore || !opts.Hidden || !slices.Equal(q.Paths, []string{"a.go"}) {
		t.Errorf("decoded %+v, walk options %+v; want paths [a.go], gitignore off, hidden on", q, opts)
	}
	out, err := json.Marshal(q)
	if err != nil || string(out) != in {
		t.Errorf("json.Marshal = %s, %v; want %s", out, err, in)
	}
}
