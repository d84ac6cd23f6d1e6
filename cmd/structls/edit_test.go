package main

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

const editCLITree = `-- a.go --
package a

func f() {
	println("a")
	println("b")
}
-- b.go --
package a

func g() {}
`

func TestEditExitCodes(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string // a line the output must hold
	}{
		{[]string{"-p", "println($A)", "-r", "log($A)"}, 0, `+	log("a")`},
		{[]string{"-p", "println($A)", "-r", ""}, 0, `-	println("b")`},
		{[]string{"-p", "nosuch($A)", "-r", "x"}, 1, "No replacements"},
		{[]string{"-p", "println($A)"}, 2, ""},
		{[]string{"-r", "x"}, 2, ""},
		{[]string{"-p", "", "-r", "x"}, 2, ""},
		{[]string{"-p", "println($A)", "-r", "x", "-l", "klingon"}, 2, ""},
		{[]string{"-p", "println($A)", "-r", "x", "missing.go"}, 2, ""},
		{[]string{"--json", "-p", "println($A)", "-r", "log($A)"}, 0, `"totalReplacements":2`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			dir := testutil.WriteTree(t, editCLITree)
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"edit", "--root", dir}, tt.args...), nil, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit code %d; want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.out) {
				t.Errorf("stdout:\n%s\nwant a line %q", stdout.String(), tt.out)
			}
			if code == 2 && stderr.Len() == 0 {
				t.Error("an error exit must say why on stderr")
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "a.go")); !strings.Contains(string(got), `println("a")`) {
				t.Error("a preview wrote a.go")
			}
		})
	}
}

// TestEditOpsFile: an --ops file reaches the server as written, so a
// misspelt or unknown field, or a wrong type, gets the server's message
// naming it, never silently dropped; only a working file changes code.
func TestEditOpsFile(t *testing.T) {
	tests := []struct {
		name, ops string
		code      int
		want      string // a part of stdout (exit 0) or stderr
	}{
		{"good", `[{"pattern": "println($A)", "rewrite": "log($A)"}]`, 0, `+	log("a")`},
		{"unknown field", `[{"pattern": "println($A)", "rewrite": "log($A)", "lang": "go"}]`, 2, `unknown field "lang" in /ops/0`},
		{"misspelt field", `[{"pattern": "println($A)", "rewite": "log($A)"}]`, 2, `"rewite" in /ops/0 (did you mean rewrite?)`},
		{"wrong type", `[{"pattern": 5, "rewrite": "x"}]`, 2, "ops/0/pattern of the argument must be a string"},
		{"not an array", `{"pattern": "println($A)", "rewrite": "x"}`, 2, "must be an array"},
		{"not JSON", `[{"pattern": `, 2, "is not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := testutil.WriteTree(t, editCLITree)
			opsFile := filepath.Join(t.TempDir(), "ops.json")
			if err := os.WriteFile(opsFile, []byte(tt.ops), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := run([]string{"edit", "--root", dir, "--ops", opsFile}, nil, &stdout, &stderr)
			out := stderr.String()
			if code == 0 {
				out = stdout.String()
			}
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d; want %d with %q\nstdout: %s\nstderr: %s", code, tt.code, tt.want, stdout.String(), stderr.String())
			}
		})
	}
}

func TestEditApplyWritesFiles(t *testing.T) {
	dir := testutil.WriteTree(t, editCLITree)
	if err := os.Chmod(filepath.Join(dir, "a.go"), 0o640); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"edit", "--root", dir, "-p", "println($A)", "-r", "", "--apply"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// What was done is said on stdout, in English: "1 file", not "1 files".
	if out := stdout.String(); !strings.HasPrefix(out, "2 replacements in 1 file;") || !strings.HasSuffix(out, "\nApplied: wrote 2 replacements in 1 file.\n") {
		t.Errorf("stdout of edit --apply:\n%s", out)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "a.go"))
	if want := "package a\n\nfunc f() {\n\t\n\t\n}\n"; string(got) != want {
		t.Errorf("a.go after deleting every println:\n%q\nwant\n%q", got, want)
	}
	if info, _ := os.Stat(filepath.Join(dir, "a.go")); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v after apply; want 0640 kept", info.Mode().Perm())
	}
	// Nothing left to do: exit 1, nothing written.
	if code := run([]string{"edit", "--root", dir, "-p", "println($A)", "-r", "", "--apply"}, nil, &stdout, &stderr); code != 1 {
		t.Errorf("second run: exit %d; want 1", code)
	}
}

// TestEditApplySurvivesKill kills `structls edit --apply` at random moments
// (SIGKILL, 20 times): every file is always whole, old or new, and once
// structls runs again (a search) no temporary file is left, every file of
// the apply holds the same text (all old or all new), and the search finds
// nothing but the files themselves.
func TestEditApplySurvivesKill(t *testing.T) {
	const files = 200
	var tree strings.Builder
	old := map[string]string{}
	for i := range files {
		name := fmt.Sprintf("p%03d.go", i)
		text := fmt.Sprintf("package p\n\nfunc f%d() {\n%s}\n", i, strings.Repeat("\tprintln(\"x\")\n", 20))
		fmt.Fprintf(&tree, "-- %s --\n%s", name, text)
		old[name] = text
	}
	env := append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir()) // the applies' journals
	command := func(args ...string) *exec.Cmd {
		cmd := exec.Command(binary, args...)
		cmd.Env = env
		return cmd
	}
	// One run to time: the kills below land after its first 40%, where the
	// preview is done and the files are being written.
	start := time.Now()
	calibrate := testutil.WriteTree(t, tree.String())
	if out, err := command("edit", "--root", calibrate, "-p", "println($A)", "-r", "print($A)", "--apply").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	full := time.Since(start)
	rng := rand.New(rand.NewPCG(1, 2))
	killed, leftovers, undone, finished := 0, 0, 0, 0
	for round := range 20 {
		dir := testutil.WriteTree(t, tree.String())
		cmd := command("edit", "--root", dir, "-p", "println($A)", "-r", "print($A)", "--apply")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := full*2/5 + time.Duration(rng.Int64N(int64(full/2)))
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(delay):
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-done
			killed++
		}
		entries, _ := os.ReadDir(dir)
		left := 0
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".go") {
				left++ // a temp file of the interrupted write, for the next run to remove
			}
		}
		leftovers += left
		// The next run: a search, which recovers the apply as it starts.
		search := command("search", "--root", dir, "--json", "-F", "print")
		var stderr bytes.Buffer
		search.Stderr = &stderr
		out, err := search.Output()
		if err != nil {
			t.Fatalf("round %d: search: %v: %s", round, err, out)
		}
		if left > 0 && !strings.Contains(stderr.String(), "an apply of 200 files in") {
			t.Errorf("round %d: the next run recovered the interrupted apply without saying so: %q", round, stderr.String())
		}
		if strings.Contains(string(out), workspace.TempMarker) {
			t.Fatalf("round %d: the search found hits in temporary files: %.300s", round, out)
		}
		entries, _ = os.ReadDir(dir)
		for _, e := range entries {
			if workspace.IsTempName(e.Name()) {
				t.Fatalf("round %d (killed after %v): temporary file %s left after the next run", round, delay, e.Name())
			}
		}
		newCount := 0
		for name, text := range old {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatalf("round %d (killed after %v): %s: %v", round, delay, name, err)
			}
			switch string(got) {
			case text:
			case strings.ReplaceAll(text, "println(", "print("):
				newCount++
			default:
				t.Fatalf("round %d (killed after %v): %s is neither the old nor the new text:\n%.200s", round, delay, name, got)
			}
		}
		switch newCount {
		case 0:
			undone++
		case files:
			finished++
		default:
			t.Fatalf("round %d (killed after %v): after the next run %d of %d files hold the new text: an apply must end all old or all new", round, delay, newCount, files)
		}
	}
	t.Logf("a full run takes %v; %d of 20 runs killed; %d temp files left by the kills, none after the next run; %d applies ended all old, %d all new",
		full, killed, leftovers, undone, finished)
}

// TestEditApplyKeepsSave saves a.go the moment `structls edit --apply`
// creates its temporary file, again and again: the save always survives
// (the apply refuses, exit 2, naming a.go and putting every other file
// back, or the save came after a.go was replaced and wins).
func TestEditApplyKeepsSave(t *testing.T) {
	const saved = "package p\n\nfunc saved() {}\n"
	var tree strings.Builder
	tree.WriteString("-- a.go --\npackage p\n\nfunc f() { println(1) }\n")
	for i := range 150 {
		fmt.Fprintf(&tree, "-- m/f%03d.go --\npackage p\n\nfunc f%d() { println(%d) }\n", i, i, i)
	}
	tree.WriteString("-- z.go --\npackage p\n\nfunc z() { println(2) }\n")
	refused := 0
	for round := range 5 {
		dir := testutil.WriteTree(t, tree.String())
		cmd := exec.Command(binary, "edit", "--root", dir, "-p", "println($A)", "-r", "print($A)", "--apply")
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
	poll:
		for {
			select {
			case err = <-done:
				break poll
			default:
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".a.go"+workspace.TempMarker) {
					if werr := os.WriteFile(filepath.Join(dir, "a.go"), []byte(saved), 0o644); werr != nil {
						t.Fatal(werr)
					}
					err = <-done
					break poll
				}
			}
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "a.go")); string(got) != saved {
			t.Fatalf("round %d: the save was lost: a.go holds %q (exit %v: %s)", round, got, err, stderr.String())
		}
		z, _ := os.ReadFile(filepath.Join(dir, "z.go"))
		switch {
		case err == nil:
			if !strings.Contains(string(z), "print(2)") {
				t.Fatalf("round %d: exit 0 but z.go holds %q", round, z)
			}
		case strings.Contains(stderr.String(), "a.go (saved while the edit was being applied"):
			refused++
			if !strings.Contains(string(z), "println(2)") {
				t.Fatalf("round %d: refused but z.go holds %q", round, z)
			}
		default:
			t.Fatalf("round %d: exit %v: %s", round, err, stderr.String())
		}
	}
	t.Logf("%d of 5 applies refused the save, the others came before it", refused)
}

// TestEditMaxFiles: past --max-files the preview says so on stderr, naming
// the flag, and --apply writes nothing; a higher --max-files takes the
// whole edit.
func TestEditMaxFiles(t *testing.T) {
	var tree strings.Builder
	for i := range 5 {
		fmt.Fprintf(&tree, "-- f%d.go --\npackage p\n\nfunc f%d() { println(%d) }\n", i, i, i)
	}
	dir := testutil.WriteTree(t, tree.String())
	before := readAll(t, dir)
	edit := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"edit", "--root", dir, "-p", "println($A)", "-r", "print($A)"}, args...), nil, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	code, stdout, stderr := edit("--max-files", "3")
	if code != 0 || !strings.Contains(stderr, "more than 3 files, the --max-files limit") || !strings.Contains(stdout, "raise maxFiles (--max-files)") {
		t.Errorf("preview past the limit: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	code, _, stderr = edit("--max-files", "3", "--apply")
	if code != 2 || !strings.Contains(stderr, "not applied, nothing was written: the edit changes more than 3 files (--max-files)") {
		t.Errorf("--apply past the limit: exit %d\nstderr: %s", code, stderr)
	}
	if after := readAll(t, dir); !maps.Equal(before, after) {
		t.Fatalf("--apply past the limit wrote files")
	}
	if code, _, stderr = edit("--max-files", "0"); code != 2 || !strings.Contains(stderr, "--max-files must be a positive number") {
		t.Errorf("--max-files 0: exit %d\nstderr: %s", code, stderr)
	}
	if code, stdout, stderr = edit("--max-files", "5", "--apply"); code != 0 || !strings.HasSuffix(stdout, "\nApplied: wrote 5 replacements in 5 files.\n") {
		t.Errorf("--max-files 5 --apply: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}

// readAll maps every file directly in dir to its text.
func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// TestEditApplyForeignOwner runs `structls edit --apply` as another user
// (nobody) on a file it may write but does not own, in a directory it may
// write: the apply is refused before anything is written, and the message
// says the real cause (the file's owner could not be kept), not "make the
// directory writable".
func TestEditApplyForeignOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run the binary as another user")
	}
	const nobody = 65534
	base, err := os.MkdirTemp("", "structls-owner-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	dir := filepath.Join(base, "ws")
	testutil.WriteFiles(t, dir, editCLITree)
	bin := filepath.Join(base, "structls")
	data, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, mode := range map[string]os.FileMode{base: 0o755, dir: 0o777, filepath.Join(dir, "a.go"): 0o666, filepath.Join(dir, "b.go"): 0o666} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	before := readAll(t, dir)
	cmd := exec.Command(bin, "edit", "--root", dir, "-p", "println($A)", "-r", "print($A)", "--apply")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CACHE_HOME="+filepath.Join(dir, ".cache"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "a.go belongs to another user (uid 0; structls runs as uid 65534)") ||
		strings.Contains(string(out), "make the directory writable") {
		t.Errorf("apply as another user: %v\n%s", err, out)
	}
	if after := readAll(t, dir); !maps.Equal(before, after) {
		t.Errorf("files changed: %v", after)
	}
}

// TestEditApplyRollbackStaysInside: while `structls edit --apply` writes,
// the directory of a file already replaced is swapped for a symlink to a
// directory outside the workspace, and a later file's temporary file is
// removed so that its replacement fails: the rollback puts the first file
// back in the moved directory and writes nothing outside, again and again.
func TestEditApplyRollbackStaysInside(t *testing.T) {
	var tree strings.Builder
	tree.WriteString("-- a/x.go --\npackage p\n\nfunc f() { println(1) }\n")
	for i := range 150 {
		fmt.Fprintf(&tree, "-- m/f%03d.go --\npackage p\n\nfunc f%d() { println(%d) }\n", i, i, i)
	}
	tree.WriteString("-- z/x.go --\npackage p\n\nfunc z() { println(2) }\n")
	landed := 0
	for round := range 5 {
		dir := testutil.WriteTree(t, tree.String())
		outside := testutil.WriteTree(t, "-- x.go --\npackage outside\n")
		cmd := exec.Command(binary, "edit", "--root", dir, "-p", "println($A)", "-r", "print($A)", "--apply")
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		swapped := false
	poll:
		for {
			select {
			case err = <-done:
				break poll
			default:
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "a", "x.go")); strings.Contains(string(b), "print(1)") {
				if os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "a.moved")) != nil || os.Symlink(outside, filepath.Join(dir, "a")) != nil {
					t.Fatal("swapping a/ failed")
				}
				temps, _ := filepath.Glob(filepath.Join(dir, "z", ".x.go"+workspace.TempMarker+"*"))
				for _, tmp := range temps {
					os.Remove(tmp)
				}
				swapped = true
				err = <-done
				break poll
			}
		}
		if b, _ := os.ReadFile(filepath.Join(outside, "x.go")); string(b) != "package outside\n" {
			t.Fatalf("round %d: a file outside the workspace was written: %q (exit %v: %s)", round, b, err, stderr.String())
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 1 {
			t.Fatalf("round %d: files were created outside the workspace: %v", round, entries)
		}
		if !swapped || err == nil {
			continue
		}
		landed++
		if !strings.Contains(stderr.String(), "replacing z/x.go") || !strings.Contains(stderr.String(), "put back, so nothing changed") {
			t.Fatalf("round %d: %s", round, stderr.String())
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "a.moved", "x.go")); !strings.Contains(string(b), "println(1)") {
			t.Fatalf("round %d: a/x.go was not put back (in a.moved/): %q", round, b)
		}
	}
	t.Logf("the swap landed between the renames in %d of 5 rounds", landed)
	if landed == 0 {
		t.Error("the swap never landed between the renames: the test proved nothing")
	}
}
