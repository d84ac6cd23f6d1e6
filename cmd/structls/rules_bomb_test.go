package main

import (
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// yamlBombs are rule files that exhausted the memory or the CPU of a
// process loading them: aliases of aliases (10⁹ values from 600 bytes),
// 100,000 nested brackets, and a file past the size limit.
func yamlBombs() map[string]struct{ text, want string } {
	laughs := "id: bomb\nlanguage: go\nutils:\n  a0: &a0 {kind: identifier}\n"
	for i := 1; i <= 9; i++ {
		prev := "*a" + string(rune('0'+i-1))
		laughs += "  a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " {any: [" + strings.Repeat(prev+", ", 9) + prev + "]}\n"
	}
	laughs += "rule: {matches: a9}\n"
	return map[string]struct{ text, want string }{
		"aliases": {laughs, "bomb.yml:9:17: utils.a5.any: more than 100000 values once its aliases are expanded"},
		"nested":  {"id: bomb\nlanguage: go\nrule: " + strings.Repeat("[", 100_000) + "\n", "bomb.yml:3:1: nested more than 1000 levels deep"},
		"large":   {"id: bomb\nlanguage: go\nrule: {kind: identifier}\nnote: |\n" + strings.Repeat("  "+strings.Repeat("x", 1000)+"\n", 9<<10), "bomb.yml: the file is larger than 8 MiB"},
	}
}

// TestYAMLBombsCLI: scan and test load a project holding a bomb and stop
// with an error naming the file, under a memory cap, in bounded memory.
func TestYAMLBombsCLI(t *testing.T) {
	for name, b := range yamlBombs() {
		t.Run(name, func(t *testing.T) {
			dir := testutil.WriteTree(t, "-- sgconfig.yml --\nruleDirs: [rules]\ntestConfigs: [{testDir: tests}]\n-- tests/t.yml --\nid: ok\nvalid: ['x']\n-- rules/ok.yml --\nid: ok\nlanguage: go\nrule: {kind: identifier}\n-- a.go --\npackage a\n")
			testutil.WriteFiles(t, dir, "-- rules/bomb.yml --\n"+b.text)
			for _, cmd := range []string{"scan", "test"} {
				r := testutil.RunCapped(t, hostileCap, hostileWait, nil, dir, binary, cmd)
				if r.ExitCode != 2 || !strings.Contains(string(r.Stderr), b.want) {
					t.Errorf("%s: exit %d (signal %q, timed out %v), stderr %.400s; want 2 and %q", cmd, r.ExitCode, r.Signal, r.TimedOut, r.Stderr, b.want)
				}
				if r.PeakRSS > hostilePeak {
					t.Errorf("%s: peak RSS %d MB; want ≤ %d MB", cmd, r.PeakRSS>>20, hostilePeak>>20)
				}
				t.Logf("%s: peak RSS %d MB", cmd, r.PeakRSS>>20)
			}
		})
	}
}
