package outline

import (
	"os"
	"os/exec"
	"testing"
)

// TestRulesCompiledOnFirstUse: starting a process compiles no outline
// table (that was half the start-up of every command); SpecFor compiles the
// one asked for. It runs in a fresh process of this test binary, where no
// other test has asked for a table yet.
func TestRulesCompiledOnFirstUse(t *testing.T) {
	if os.Getenv("STRUCTLS_FRESH_OUTLINE_PROCESS") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRulesCompiledOnFirstUse$", "-test.count=1")
		cmd.Env = append(os.Environ(), "STRUCTLS_FRESH_OUTLINE_PROCESS=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("in a fresh process: %v\n%s", err, out)
		}
		return
	}
	compiled := func(name string) int {
		n := 0
		var count func(rules []Rule)
		count = func(rules []Rule) {
			for i := range rules {
				if rules[i].c != nil {
					n++
				}
				count(rules[i].Members)
			}
		}
		count(allSpecs()[name].Rules)
		return n
	}
	for name := range allSpecs() {
		if n := compiled(name); n > 0 {
			t.Errorf("%s: %d rules compiled before anyone asked for the table", name, n)
		}
	}
	SpecFor("go")
	if compiled("go") == 0 {
		t.Errorf("SpecFor(go) compiled no rule")
	}
	if compiled("python") > 0 {
		t.Errorf("SpecFor(go) compiled python's table too")
	}
}
