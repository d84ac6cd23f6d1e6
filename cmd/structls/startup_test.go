package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// maxInitBytes is what one structls package may allocate before main: a
// few small tables. Anything a command may not use (the outline's
// language tables, the rule files' regular expressions) is built on first
// use, since every process, a search of one file included, pays for
// every package's initialisers (docs/design.md, Performance).
const maxInitBytes = 32 << 10

// initLine is one line of GODEBUG=inittrace=1's report about one of
// structls's own packages.
var initLine = regexp.MustCompile(`(?m)^init (github\.com/structls/structls(?:/\S+)?) @.* clock, (\d+) bytes, \d+ allocs$`)

// TestStartUpBuildsNoTables runs `structls version` and reads the Go
// runtime's account of each package's initialisers: none of structls's
// own may allocate more than maxInitBytes (the outline tables took 365 KB,
// the rule files' regular expressions 92 KB, before they were made lazy).
func TestStartUpBuildsNoTables(t *testing.T) {
	cmd := exec.Command(binary, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("structls version: %v\n%s", err, out)
	}
	ours := 0
	for _, m := range initLine.FindAllStringSubmatch(string(out), -1) {
		pkg, bytes := m[1], m[2]
		ours++
		n, _ := strconv.Atoi(bytes)
		if n > maxInitBytes {
			t.Errorf("package %s allocates %d bytes before main (at most %d): build what it allocates on first use", pkg, n, maxInitBytes)
		}
	}
	if ours == 0 {
		t.Fatalf("no structls package in the init trace:\n%s", out)
	}
}
