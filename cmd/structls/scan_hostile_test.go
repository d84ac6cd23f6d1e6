package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
)

// hostileCap is the address-space cap the hostile scans run under, and
// hostilePeak the resident set they must stay below: the budgets the
// README states, with room for the runtime and the parse.
const (
	hostileCap  = 4 << 30
	hostilePeak = 600 << 20
	hostileWait = 2 * time.Minute // turns a hang into a failure only
)

// bigFixTree holds a call whose fix expands past the 64 MiB cap on
// replacement text (1,000 copies of an 80 KB argument list) next to one
// whose fix is small.
func bigFixTree(t *testing.T) (dir string, original []byte) {
	args := strings.TrimSuffix(strings.Repeat("aaaaaaa, ", 80_000/9), ", ")
	src := "package a\n\nfunc f() {\n\tg(" + args + ")\n\tg(1)\n}\n"
	fix := "h(" + strings.TrimSuffix(strings.Repeat("$$$A, ", 1000), ", ") + ")"
	dir = testutil.WriteTree(t, "-- a.go --\n"+src+"-- big.yml --\nid: big-fix\nlanguage: go\nseverity: warning\nrule: {pattern: 'g($$$A)'}\nfix: '"+fix+"'\n")
	return dir, []byte(src)
}

// TestScanApplyRefusesUnrenderableFix: a fix whose expansion passes the
// cap is an error for its match (a warning naming the file, line and rule,
// exit 1), never its template written into the file; the other match is
// fixed.
func TestScanApplyRefusesUnrenderableFix(t *testing.T) {
	dir, original := bigFixTree(t)
	r := testutil.RunCapped(t, hostileCap, hostileWait, nil, dir, binary, "scan", "-r", "big.yml", "--apply")
	if r.ExitCode != 1 || !strings.Contains(string(r.Stderr), "a.go:4: big-fix: not fixed: the fix cannot be rendered: the rewrite makes more than 64 MiB of text") {
		t.Errorf("exit %d (signal %q), stderr %.600s; want 1 and the match's error", r.ExitCode, r.Signal, r.Stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "a.go"))
	want := strings.Replace(string(original), "g(1)", "h("+strings.TrimSuffix(strings.Repeat("1, ", 1000), ", ")+")", 1)
	if string(got) != want {
		t.Errorf("a.go after --apply: %d bytes, starting %.200q; want the big call kept and the small one fixed (%d bytes)", len(got), got, len(want))
	}
	if r.PeakRSS > hostilePeak {
		t.Errorf("peak RSS %d MB; want ≤ %d MB", r.PeakRSS>>20, hostilePeak>>20)
	}
}

// TestScanJSONShowsFixError: --json gives the match no fix, and says why.
func TestScanJSONShowsFixError(t *testing.T) {
	dir, _ := bigFixTree(t)
	r := testutil.RunCapped(t, hostileCap, hostileWait, nil, dir, binary, "scan", "-r", "big.yml", "--json")
	var out struct {
		Diagnostics []struct {
			Fix      *struct{ Text string }
			FixError string
		}
	}
	if err := json.Unmarshal(r.Stdout, &out); err != nil || len(out.Diagnostics) != 2 {
		t.Fatalf("exit %d, %v, stdout %.300s", r.ExitCode, err, r.Stdout)
	}
	big, small := out.Diagnostics[0], out.Diagnostics[1]
	if big.Fix != nil || !strings.Contains(big.FixError, "more than 64 MiB") {
		t.Errorf("the big match: fix %v, fixError %q; want no fix and the error", big.Fix != nil, big.FixError)
	}
	if small.Fix == nil || small.FixError != "" {
		t.Errorf("the small match: fix %v, fixError %q; want its fix", small.Fix, small.FixError)
	}
}

// TestTransformBombs: transforms whose output grows past the cap on
// transform text end in an error for the match, under a memory cap; the
// run goes on and reports the other rule.
func TestTransformBombs(t *testing.T) {
	var chain strings.Builder
	chain.WriteString("  T0: {replace: {source: $A, replace: a, by: aa}}\n")
	for i := 1; i < 30; i++ {
		chain.WriteString("  T" + strconv.Itoa(i) + ": {replace: {source: $T" + strconv.Itoa(i-1) + ", replace: a, by: aa}}\n")
	}
	tests := []struct {
		name, src, transform, fix string
	}{
		{"chain", "package a\n\nvar x = g(\"aaaaaa\")\n", chain.String(), "$T29"},
		{"wide", "package a\n\nvar x = g(\"" + strings.Repeat("b", 1<<20) + "\")\n", "  W: {replace: {source: $A, replace: '(.)', by: '" + strings.Repeat("$1", 128) + "'}}\n", "$W"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := testutil.WriteTree(t, "-- a.go --\n"+tt.src+"-- r.yml --\nid: bomb\nlanguage: go\nseverity: error\nrule: {pattern: 'g($A)'}\ntransform:\n"+tt.transform+"fix: '"+tt.fix+"'\n---\nid: other\nlanguage: go\nseverity: warning\nrule: {kind: var_declaration}\n")
			r := testutil.RunCapped(t, hostileCap, hostileWait, nil, dir, binary, "scan", "-r", "r.yml", "--json")
			if r.Signal != "" || r.TimedOut || r.ExitCode != 1 {
				t.Fatalf("exit %d, signal %q, timed out %v, stderr %.300s", r.ExitCode, r.Signal, r.TimedOut, r.Stderr)
			}
			var out struct {
				Diagnostics []struct {
					RuleID   string
					Fix      *struct{ Text string }
					FixError string
				}
			}
			if err := json.Unmarshal(r.Stdout, &out); err != nil || len(out.Diagnostics) != 2 {
				t.Fatalf("%v, stdout %.300s", err, r.Stdout)
			}
			for _, d := range out.Diagnostics {
				if d.RuleID == "bomb" && (d.Fix != nil || !strings.Contains(d.FixError, "transform `") || !strings.Contains(d.FixError, "more than 16 MiB")) {
					t.Errorf("bomb: fix %v, fixError %q; want the transform's error", d.Fix != nil, d.FixError)
				}
			}
			if r.PeakRSS > hostilePeak {
				t.Errorf("peak RSS %d MB; want ≤ %d MB", r.PeakRSS>>20, hostilePeak>>20)
			}
			t.Logf("peak RSS %d MB", r.PeakRSS>>20)
		})
	}
}

// recursiveRule recurses through inside and has with matches; scan ran
// past 60 s on an 8-line file (ast-grep 0.51.1 overflows its stack).
const recursiveRule = `id: rec
language: go
utils:
  up:
    any:
      - kind: comment
      - inside: {matches: up, stopBy: end}
      - has: {matches: up, stopBy: end}
rule: {kind: int_literal, matches: up}
`

// TestScanStopsRecursiveRule: the rule is stopped at its step bound and
// reported as an error naming the rule and the file; the other rule runs.
func TestScanStopsRecursiveRule(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc f() {\n\tx := 1\n\tif x > 0 {\n\t\tprintln(x)\n\t}\n}\n-- r.yml --\n"+recursiveRule+"---\nid: ints\nlanguage: go\nseverity: warning\nrule: {kind: int_literal}\n")
	r := testutil.RunCapped(t, hostileCap, hostileWait, nil, dir, binary, "scan", "-r", "r.yml")
	out := string(r.Stdout)
	if r.TimedOut || r.ExitCode != 1 || !strings.Contains(out, "error[rec]: structls stopped evaluating rule rec here") || !strings.Contains(out, "--> a.go:4:7") || strings.Count(out, "warning[ints]") != 2 {
		t.Errorf("exit %d, timed out %v, stdout %.2000s; want 1, the rec error at a.go:4:7 and the two ints warnings", r.ExitCode, r.TimedOut, out)
	}
	if r.PeakRSS > hostilePeak {
		t.Errorf("peak RSS %d MB; want ≤ %d MB", r.PeakRSS>>20, hostilePeak>>20)
	}
}
