package main

import (
	"bytes"
	"fmt"
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
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".go") {
				leftovers++ // a temp file of the interrupted write, for the next run to remove
			}
		}
		// The next run: a search, whose server recovers the apply at start.
		out, err := command("search", "--root", dir, "--json", "-F", "print").Output()
		if err != nil {
			t.Fatalf("round %d: search: %v: %s", round, err, out)
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
