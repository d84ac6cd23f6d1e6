package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
)

// editMemoryCap is the address space the near-cap edits below run in
// (chosen from measurement: with 2 GiB the Go heap finds no room for the
// 120 MB JSON frame among the binary's reservations, and from 6 GiB the
// Starlark evaluator's 4 GiB reservation succeeds and leaves less).
const editMemoryCap = 3 << 30

// The peak resident sets those runs may reach. The text preview and the
// apply hold the new text about three times (the template's expansion, the
// file's new content, its bytes written); they asked for the text alone, so
// the 62 MB is never sent. --json and the server's full reply carry it
// twice (the replacements and the WorkspaceEdit), 124 MB, copied while it
// is encoded and decoded on the JSON-RPC pipe. Measured at the change that
// made the text mode ask for the text alone and gave the CLI a soft limit
// on its heap: 204 MiB (edit), 206 MiB (--apply), 442 MiB (--json), 520
// MiB (the server); before it, 0.8-1.0 GiB for each of the three CLI runs
// (and ~1.8 GB, killed, when issue 21 was filed). The bounds leave room for
// a loaded machine's later collections.
const (
	editPeakRSS = 384 << 20 // edit, edit --apply: the text alone is sent
	editFullRSS = 896 << 20 // edit --json and the server: the whole reply
)

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
			bound := editPeakRSS
			if slices.Contains(mode, "--json") {
				bound = editFullRSS
			}
			if r.PeakRSS > int64(bound) {
				t.Errorf("peak RSS %d MiB, want at most %d MiB", r.PeakRSS>>20, bound>>20)
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
	// The server's astEdit with format "text": the whole reply (the files,
	// the WorkspaceEdit, the text) to an editor over stdio.
	t.Run("serve astEdit format text", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package p\n\nvar v = f(\""+capture+"\")\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := serveCapped(t, dir, "structls.astEdit", map[string]any{"ops": []any{map[string]any{"pattern": "f($A)", "rewrite": template}},
			"format": "text"}, false, editMemoryCap)
		if r.TimedOut || r.ExitCode != 0 || r.Signal != "" {
			t.Fatalf("serve: timed out %v, exit %d (signal %q): %.2000s", r.TimedOut, r.ExitCode, r.Signal, r.Stderr)
		}
		if r.PeakRSS > editFullRSS {
			t.Errorf("peak RSS %d MiB, want at most %d MiB", r.PeakRSS>>20, editFullRSS>>20)
		}
		if !strings.Contains(string(r.Stdout), `"totalReplacements":1,`) {
			t.Errorf("the reply has no replacement: %.500s", r.Stdout)
		}
	})
}
