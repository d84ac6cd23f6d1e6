package main

import (
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// TestYAMLBombsCLI: scan and test load a project holding a bomb and stop
// with an error naming the file, under a memory cap, in bounded memory.
func TestYAMLBombsCLI(t *testing.T) {
	for name, b := range testutil.YAMLBombs() {
		t.Run(name, func(t *testing.T) {
			dir := testutil.WriteTree(t, "-- sgconfig.yml --\nruleDirs: [rules]\ntestConfigs: [{testDir: tests}]\n-- tests/t.yml --\nid: ok\nvalid: ['x']\n-- rules/ok.yml --\nid: ok\nlanguage: go\nrule: {kind: identifier}\n-- a.go --\npackage a\n")
			testutil.WriteFiles(t, dir, "-- rules/bomb.yml --\n"+b.Text)
			for _, cmd := range []string{"scan", "test"} {
				r := testutil.RunCapped(t, hostileCap, hostileWait, nil, dir, binary, cmd)
				if r.ExitCode != 2 || !strings.Contains(string(r.Stderr), b.Want) {
					t.Errorf("%s: exit %d (signal %q, timed out %v), stderr %.400s; want 2 and %q", cmd, r.ExitCode, r.Signal, r.TimedOut, r.Stderr, b.Want)
				}
				if r.PeakRSS > hostilePeak {
					t.Errorf("%s: peak RSS %d MB; want ≤ %d MB", cmd, r.PeakRSS>>20, hostilePeak>>20)
				}
				t.Logf("%s: peak RSS %d MB", cmd, r.PeakRSS>>20)
			}
		})
	}
}
