package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

var applyLine = regexp.MustCompile(`(?m)^structls (edit .*--expect ([0-9a-f]+).*)$`)

// calls is a Go file with n calls of f.
func calls(n int) string {
	var b strings.Builder
	b.WriteString("package p\n\nfunc g() {\n")
	for i := range n {
		fmt.Fprintf(&b, "\tf(%d)\n", i)
	}
	b.WriteString("}\n")
	return b.String()
}

// TestEditExpectAppliesOnlyThePreviewedPlan: the case of issue 22 — a
// preview of 20 replacements, one call added, then --apply --expect with
// the preview's fingerprint is refused with nothing written (it would have
// written 21); so is a plan whose file changed elsewhere; the command the
// preview prints, run as it is, writes the plan it names. In-process and
// through the shared server.
func TestEditExpectAppliesOnlyThePreviewedPlan(t *testing.T) {
	for _, remote := range []bool{false, true} {
		t.Run(fmt.Sprintf("remote=%v", remote), func(t *testing.T) {
			r := newRemoteEnv(t, "60s")
			if remote {
				r.env = append(r.env, "STRUCTLS_REMOTE=auto")
			}
			dir := testutil.WriteTree(t, "-- a.go --\n"+calls(20))
			file := filepath.Join(dir, "a.go")
			preview := func() (command, fingerprint string) {
				t.Helper()
				out, errOut, code := r.run(t, "edit", "--root", dir, "-p", "f($A)", "-r", "h($A)")
				m := applyLine.FindStringSubmatch(out)
				if code != 0 || m == nil {
					t.Fatalf("preview: exit %d, no apply command in\n%s\n%s", code, out, errOut)
				}
				return m[1], m[2]
			}
			apply := func(fingerprint string) (string, int) {
				_, errOut, code := r.run(t, "edit", "--root", dir, "-p", "f($A)", "-r", "h($A)", "--apply", "--expect", fingerprint)
				return errOut, code
			}
			_, fp20 := preview()

			changed := strings.Replace(calls(20), "}\n", "\tf(20)\n}\n", 1) // a 21st match
			writeFile(t, file, changed)
			if errOut, code := apply(fp20); code != exitError || !strings.Contains(errOut, "the plan changed since the preview") ||
				!strings.Contains(errOut, "21 replacements") {
				t.Errorf("apply of the 20-replacement plan after a 21st call: exit %d, %q; want refused", code, errOut)
			}
			if got := readFile(t, file); got != changed {
				t.Fatalf("the refused apply wrote the file:\n%s", got)
			}

			command, fp21 := preview()
			commented := "// a comment\n" + changed // the same matches, other content
			writeFile(t, file, commented)
			if errOut, code := apply(fp21); code != exitError || !strings.Contains(errOut, "nothing was written") {
				t.Errorf("apply after the file changed elsewhere: exit %d, %q; want refused", code, errOut)
			}
			if got := readFile(t, file); got != commented {
				t.Fatalf("the refused apply wrote the file:\n%s", got)
			}

			writeFile(t, file, changed)
			sh := exec.Command("sh", "-c", shellQuote(binary)+" "+command)
			sh.Env, sh.Dir = r.env, dir
			if out, err := sh.CombinedOutput(); err != nil || !strings.Contains(string(out), "wrote 21 replacements in 1 file") {
				t.Fatalf("the printed command %q: %v\n%s", command, err, out)
			}
			if got := readFile(t, file); strings.Count(got, "\th(") != 21 || strings.Contains(got, "f(") {
				t.Errorf("after the apply:\n%s\nwant the 21 calls rewritten", got)
			}
		})
	}
}

// TestEditExpectNeedsApply: --expect alone is a usage error.
func TestEditExpectNeedsApply(t *testing.T) {
	r := newRemoteEnv(t, "60s")
	dir := testutil.WriteTree(t, "-- a.go --\n"+calls(2))
	if _, errOut, code := r.run(t, "edit", "--root", dir, "-p", "f($A)", "-r", "h($A)", "--expect", "00"); code != exitError ||
		!strings.Contains(errOut, "--expect goes with --apply") {
		t.Errorf("exit %d, %q; want a usage error", code, errOut)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestEditPreviewIsCutAt50KB: a preview over 50 KB of text is cut at a
// line end with a note, and still ends with the command that applies the
// whole plan it fingerprints.
func TestEditPreviewIsCutAt50KB(t *testing.T) {
	r := newRemoteEnv(t, "60s")
	dir := testutil.WriteTree(t, "-- a.go --\n"+calls(3000)) // some 150 KB of preview and diff
	out, errOut, code := r.run(t, "edit", "--root", dir, "-p", "f($A)", "-r", "h($A)")
	m := applyLine.FindStringSubmatch(out)
	if code != 0 || m == nil || len(out) > 50<<10 || !strings.Contains(out, "\n… cut at 50 KB (") {
		t.Fatalf("exit %d, %d bytes, stderr %q, ends %q; want at most 50 KB, a cut note and the apply command",
			code, len(out), errOut, out[max(0, len(out)-300):])
	}
	sh := exec.Command("sh", "-c", shellQuote(binary)+" "+m[1])
	sh.Env, sh.Dir = r.env, dir
	if got, err := sh.CombinedOutput(); err != nil || !strings.Contains(string(got), "wrote 3000 replacements") || len(got) > 51<<10 {
		t.Errorf("the printed command: %v, %d bytes, ends %q; want the whole plan written and a capped preview", err, len(got), string(got[max(0, len(got)-200):]))
	}
}
