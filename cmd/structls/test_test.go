package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// snapshotTree is a project whose rule test writes a snapshot; the
// tests below plant escapes in it, with a file "outside" next to it.
const snapshotTree = `-- proj/sub/sgconfig.yml --
ruleDirs: [rules]
testConfigs: [{testDir: tests}]
-- proj/sub/rules/no-panic.yml --
id: no-panic
language: go
rule: {pattern: panic($A)}
fix: fail($A)
-- proj/sub/tests/no-panic.yml --
id: no-panic
invalid: ['panic(2)']
-- outside/keep.txt --
untouched
`

// runTestUpdate runs `structls test --update-all` in dir.
func runTestUpdate(t *testing.T, dir string) (int, string) {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run([]string{"test", "--update-all"}, nil, &stdout, &stderr)
	return code, stdout.String() + stderr.String()
}

// outsideFiles lists the files below root/outside other than keep.txt,
// and fails when keep.txt changed.
func outsideFiles(t *testing.T, root string) []string {
	t.Helper()
	var extra []string
	filepath.WalkDir(filepath.Join(root, "outside"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "keep.txt" {
			extra = append(extra, p)
		}
		return nil
	})
	if b, _ := os.ReadFile(filepath.Join(root, "outside", "keep.txt")); string(b) != "untouched\n" {
		t.Errorf("outside/keep.txt was written: %q", b)
	}
	return extra
}

// TestUpdateAllRefusesSnapshotDirOutside: `snapshotDir: ../../../outside`
// is refused by `structls test`, naming the field; nothing is written, and
// scans of the project still run.
func TestUpdateAllRefusesSnapshotDirOutside(t *testing.T) {
	root := testutil.WriteTree(t, snapshotTree)
	os.WriteFile(filepath.Join(root, "proj/sub/sgconfig.yml"), []byte("ruleDirs: [rules]\ntestConfigs: [{testDir: tests, snapshotDir: ../../../outside}]\n"), 0o644)
	code, out := runTestUpdate(t, filepath.Join(root, "proj/sub"))
	if code != 2 || !strings.Contains(out, "testConfigs[0].snapshotDir") || !strings.Contains(out, "outside the project") {
		t.Errorf("exit %d, output %q; want 2 and an error naming testConfigs[0].snapshotDir", code, out)
	}
	if extra := outsideFiles(t, root); len(extra) > 0 {
		t.Errorf("written outside the project: %v", extra)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"scan"}, nil, &stdout, &stderr); code != 0 {
		t.Errorf("scan of the project: exit %d, stderr %q; want 0 (scans read no snapshot)", code, stderr.String())
	}
}

// TestUpdateAllRefusesIDPath: a rule id holding a path cannot name a
// snapshot file.
func TestUpdateAllRefusesIDPath(t *testing.T) {
	root := testutil.WriteTree(t, snapshotTree)
	id := "../../../../outside/pwn"
	os.WriteFile(filepath.Join(root, "proj/sub/rules/no-panic.yml"), []byte("id: '"+id+"'\nlanguage: go\nrule: {pattern: panic($A)}\nfix: fail($A)\n"), 0o644)
	os.WriteFile(filepath.Join(root, "proj/sub/tests/no-panic.yml"), []byte("id: '"+id+"'\ninvalid: ['panic(2)']\n"), 0o644)
	code, out := runTestUpdate(t, filepath.Join(root, "proj/sub"))
	if code != 2 || !strings.Contains(out, "id: the rule id `"+id+"` cannot name a snapshot file") {
		t.Errorf("exit %d, output %q; want 2 and an error naming the id", code, out)
	}
	if extra := outsideFiles(t, root); len(extra) > 0 {
		t.Errorf("written outside the project: %v", extra)
	}
}

// TestUpdateAllFollowsNoLink: a planted link at the old temp name is
// left alone (the temp file is new and created exclusively), and a link in
// place of the snapshot directory or the snapshot file is refused.
func TestUpdateAllFollowsNoLink(t *testing.T) {
	t.Run("temp", func(t *testing.T) {
		root := testutil.WriteTree(t, snapshotTree)
		snaps := filepath.Join(root, "proj/sub/tests/__snapshots__")
		os.MkdirAll(snaps, 0o755)
		os.Symlink(filepath.Join(root, "outside/pwn"), filepath.Join(snaps, "no-panic-snapshot.yml.tmp"))
		code, out := runTestUpdate(t, filepath.Join(root, "proj/sub"))
		if code != 0 || !strings.Contains(out, "PASS no-panic  U") {
			t.Fatalf("exit %d, output %q", code, out)
		}
		if b, _ := os.ReadFile(filepath.Join(snaps, "no-panic-snapshot.yml")); !strings.Contains(string(b), "fixed: fail(2)\n") {
			t.Errorf("snapshot not written: %q", b)
		}
		if extra := outsideFiles(t, root); len(extra) > 0 {
			t.Errorf("written outside the project: %v", extra)
		}
		tmps, _ := filepath.Glob(filepath.Join(snaps, ".*.tmp"))
		if len(tmps) > 0 {
			t.Errorf("temp files left: %v", tmps)
		}
	})
	t.Run("directory", func(t *testing.T) {
		root := testutil.WriteTree(t, snapshotTree)
		os.Symlink(filepath.Join(root, "outside"), filepath.Join(root, "proj/sub/tests/__snapshots__"))
		code, out := runTestUpdate(t, filepath.Join(root, "proj/sub"))
		if code != 2 || !strings.Contains(out, "it is a symbolic link, not a directory") {
			t.Errorf("exit %d, output %q; want 2 and a refusal", code, out)
		}
		if extra := outsideFiles(t, root); len(extra) > 0 {
			t.Errorf("written outside the project: %v", extra)
		}
	})
	t.Run("file", func(t *testing.T) {
		root := testutil.WriteTree(t, snapshotTree)
		snaps := filepath.Join(root, "proj/sub/tests/__snapshots__")
		os.MkdirAll(snaps, 0o755)
		os.Symlink(filepath.Join(root, "outside/keep.txt"), filepath.Join(snaps, "no-panic-snapshot.yml"))
		code, out := runTestUpdate(t, filepath.Join(root, "proj/sub"))
		if code != 2 || !strings.Contains(out, "it is a symbolic link; remove it") {
			t.Errorf("exit %d, output %q; want 2 and a refusal", code, out)
		}
		outsideFiles(t, root)
	})
}
