package rules

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// folderProjectTree is a folder with a one-rule project.
const folderProjectTree = `-- sgconfig.yml --
ruleDirs: [rules]
-- rules/no-println.yml --
id: no-println
language: go
rule: {pattern: println($$$)}
message: first
-- main.go --
package main

func main() { println(1) }
`

// editedRule is folderProjectTree's rule with another message.
const editedRule = `-- rules/no-println.yml --
id: no-println
language: go
rule: {pattern: println($$$)}
message: second
`

// TestProjectCache: a folder's project is loaded once and kept (onLoad
// hears of it once), a rule edited meanwhile is not seen until Invalidate,
// which starts a new generation; a folder without a project has none, and
// one whose rules do not load keeps its error and the files to watch for a
// fix.
func TestProjectCache(t *testing.T) {
	dir := testutil.WriteTree(t, folderProjectTree)
	var told []*FolderProject
	c := NewProjectCache(func(folderPath string, loaded *FolderProject) {
		if folderPath != dir {
			t.Errorf("onLoad for %s; want %s", folderPath, dir)
		}
		told = append(told, loaded)
	})
	loaded := c.Load(dir)
	if loaded.Err != nil || loaded.Project == nil || len(told) != 1 || told[0] != loaded {
		t.Fatalf("first load: %+v, onLoad told %v; want the project, told once", loaded, told)
	}
	if again := c.Load(dir); again != loaded || len(told) != 1 {
		t.Fatalf("second load: %p (onLoad told %d times); want the kept %p, told once", again, len(told), loaded)
	}
	if !slices.Contains(c.Sources(), filepath.Join(dir, "rules", "no-println.yml")) || !slices.Contains(c.Sources(), filepath.Join(dir, "sgconfig.yml")) {
		t.Errorf("sources %v; want the config and the rule", c.Sources())
	}
	testutil.WriteFiles(t, dir, editedRule)
	if kept := c.Load(dir); kept.Project.Rules.Rules[0].Message != "first" {
		t.Errorf("a kept project changed before Invalidate")
	}
	before := c.Generation()
	c.Invalidate()
	if c.Generation() == before {
		t.Errorf("Invalidate kept generation %d", before)
	}
	if len(c.Sources()) != 0 {
		t.Errorf("sources %v after Invalidate; want none", c.Sources())
	}
	reloaded := c.Load(dir)
	if len(told) != 2 || reloaded.Project.Rules.Rules[0].Message != "second" {
		t.Errorf("after Invalidate: onLoad told %d times, message %q; want a new load, told, with the edited rule", len(told), reloaded.Project.Rules.Rules[0].Message)
	}

	none := testutil.WriteTree(t, "-- main.go --\npackage main\n")
	if got := LoadFolderProject(none); got.Project != nil || got.Err != nil {
		t.Errorf("a folder without sgconfig.yml: %+v; want no project and no error", got)
	}
	broken := testutil.WriteTree(t, "-- sgconfig.yml --\nruleDirs: [rules]\n-- rules/bad.yml --\nid: bad\nlanguage: nope\nrule: {pattern: x}\n")
	got := LoadFolderProject(broken)
	if got.Project != nil || got.Err == nil || !slices.Contains(got.Sources, filepath.Join(broken, "rules", "bad.yml")) {
		t.Errorf("a project whose rule does not load: %+v; want its error, and the config and the rule as sources", got)
	}
}

// TestScanLoadsRulesAfresh: the scan command reads a folder's project for
// every request (no cache between scans: nothing tells a server without
// file watching that a rule changed), so a rule edited between two scans
// counts at once.
func TestScanLoadsRulesAfresh(t *testing.T) {
	dir := testutil.WriteTree(t, folderProjectTree)
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	scan := func() string {
		snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
		res, err := Scan(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16}, Query{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Diagnostics) != 1 {
			t.Fatalf("%d diagnostics (rule errors %v); want 1", len(res.Diagnostics), res.RuleErrors)
		}
		return res.Diagnostics[0].Message
	}
	if got := scan(); got != "first" {
		t.Fatalf("first scan: %q; want first", got)
	}
	testutil.WriteFiles(t, dir, editedRule)
	if got := scan(); got != "second" {
		t.Errorf("scan after the rule changed: %q; want second", got)
	}
}
