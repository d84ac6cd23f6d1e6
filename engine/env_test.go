package engine_test

import (
	"errors"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestStart: the query's own checks come first, then its globs, then its
// paths; a path that does not exist is reported, not an error, unless
// every path is missing; a path outside the workspace is an error.
func TestStart(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n")
	folder, err := workspace.NewFolder(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	env := engine.Env{Snapshot: workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)}
	ok := func() (int, error) { return 7, nil }
	bad := errors.New("the query's own error")

	if _, _, err := engine.Start(env, workspace.Scope{Globs: []string{"["}}, engine.PlainPaths, func() (int, error) { return 0, bad }); err != bad {
		t.Errorf("a query failing its own checks and with a bad glob: %v; want its own error first", err)
	}
	if _, _, err := engine.Start(env, workspace.Scope{Globs: []string{"["}}, engine.PlainPaths, ok); !errors.As(err, new(*workspace.PathError)) {
		t.Errorf("a bad glob: %v; want a path error, which says to fix it", err)
	}
	if _, _, err := engine.Start(env, workspace.Scope{Paths: []string{"../outside"}}, engine.PlainPaths, ok); err == nil {
		t.Error("a path outside the workspace was accepted")
	}
	if _, _, err := engine.Start(env, workspace.Scope{Paths: []string{"a.go:1-2"}}, engine.PlainPaths, ok); err == nil {
		t.Error("a line range was accepted where only plain paths are")
	}
	if _, _, err := engine.Start(env, workspace.Scope{Paths: []string{"a.go:1-2"}}, engine.LineRanges, ok); err != nil {
		t.Errorf("a line range where they are allowed: %v", err)
	}

	set, req, err := engine.Start(env, workspace.Scope{Paths: []string{"a.go", "nope.go"}}, engine.PlainPaths, ok)
	if err != nil || set != 7 {
		t.Fatalf("Start = %v, %v; want the settings 7", set, err)
	}
	if len(req.Targets) != 1 || len(req.MissingPaths()) != 1 || req.MissingPaths()[0] != "nope.go" || len(req.MissingWarnings()) != 1 {
		t.Errorf("targets %v, missing %v, warnings %v; want a.go, and nope.go missing", req.Targets, req.MissingPaths(), req.MissingWarnings())
	}
	if !req.Walk.Gitignore || !req.Walk.Hidden {
		t.Errorf("walk options %+v; want the defaults: ignore files honoured, hidden files included", req.Walk)
	}
	_, req, _ = engine.Start(env, workspace.Scope{}, engine.PlainPaths, ok)
	if m := req.MissingPaths(); m == nil || len(m) != 0 {
		t.Errorf("MissingPaths with none missing = %#v; want an empty, non-nil list", m)
	}
}
