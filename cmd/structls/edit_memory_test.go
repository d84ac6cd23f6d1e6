package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
)

// editMemoryCap is the address space the near-cap edits below run in
// (chosen from measurement: with 2 GiB the Go heap finds no room for the
// 120 MB JSON frame among the binary's reservations, and from 6 GiB the
// Starlark evaluator's 4 GiB reservation succeeds and leaves less).
// Measured peaks: 0.80 GiB (edit), 0.93 GiB (--json), 0.79 GiB (--apply);
// before, edit and --apply died of "out of memory" under this cap and
// peaked at 2.3 and 1.7 GiB without it, --json at 1.2 GiB.
const editMemoryCap = 3 << 30

// editPeakRSS bounds the peak resident set of those runs. Most of it is
// the JSON-RPC layer's copies of the 120 MB reply (the new text is in it
// twice: the replacements and the WorkspaceEdit) and garbage the collector
// has not yet reclaimed: on a loaded machine (the -race tests of other
// packages running beside) --apply peaked at 1.36 GiB once, against 0.8
// GiB on a quiet one, so the bound leaves that room.
const editPeakRSS = 1536 << 20

// TestEditNearTheCapMemory rewrites one 1 MiB capture into a template that
// repeats it 59 times: 62 MB of new text, just under the 64 MiB an edit may
// make. The preview (text, which is the server's astEdit with format
// "text"), its JSON and its apply all succeed under an address-space cap,
// with the peak resident set bounded.
func TestEditNearTheCapMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary on 62 MB of new text")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the apply's journal
	capture := strings.Repeat("x", 1<<20)
	template := "g(" + strings.Repeat("$A, ", 58) + "$A)"
	for _, mode := range [][]string{nil, {"--json"}, {"--apply"}} {
		t.Run(strings.Join(append([]string{"edit"}, mode...), " "), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package p\n\nvar v = f(\""+capture+"\")\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"edit", "--root", dir, "-p", "f($A)", "-r", template}, mode...)
			r := testutil.RunCapped(t, editMemoryCap, 5*time.Minute, nil, dir, binary, args...)
			t.Logf("exit %d, peak RSS %d MiB, %d bytes of output", r.ExitCode, r.PeakRSS>>20, len(r.Stdout))
			if r.ExitCode != 0 || r.Signal != "" || r.TimedOut {
				t.Fatalf("exit %d (signal %q, timed out %v): %.2000s", r.ExitCode, r.Signal, r.TimedOut, r.Stderr)
			}
			if r.PeakRSS > editPeakRSS {
				t.Errorf("peak RSS %d MiB, want at most %d MiB", r.PeakRSS>>20, editPeakRSS>>20)
			}
			if mode == nil && !strings.Contains(string(r.Stdout), "(no diff for a.go: its replacements make ") {
				t.Errorf("the text rendering shows no note for the diff left out: %.300s", r.Stdout)
			}
			if len(mode) > 0 && mode[0] == "--apply" {
				got, err := os.ReadFile(filepath.Join(dir, "a.go"))
				if err != nil || len(got) < 59<<20 || !strings.HasPrefix(string(got), "package p\n\nvar v = g(\"xxx") {
					t.Errorf("a.go after the apply: %d bytes, %v", len(got), err)
				}
			}
		})
	}
}
