package testutil

import (
	"fmt"
	"strings"
	"testing"
)

// recordTB records what missingTool asks of the test instead of doing it.
type recordTB struct {
	testing.TB
	skipped, failed string
}

func (r *recordTB) Helper()                        {}
func (r *recordTB) Skipf(format string, a ...any)  { r.skipped = fmt.Sprintf(format, a...) }
func (r *recordTB) Fatalf(format string, a ...any) { r.failed = fmt.Sprintf(format, a...) }

// TestMissingTool: a missing tool skips the test, naming the tool and
// scripts/test.sh; under STRUCTLS_REQUIRE_TOOLS it fails it.
func TestMissingTool(t *testing.T) {
	t.Setenv(RequireToolsEnv, "")
	r := &recordTB{TB: t}
	missingTool(r, "ripgrep", "no rg on $PATH")
	if r.failed != "" || !strings.Contains(r.skipped, "ripgrep is not installed") || !strings.Contains(r.skipped, "scripts/test.sh") {
		t.Errorf("without %s: skipped %q, failed %q; want a skip naming the tool and scripts/test.sh", RequireToolsEnv, r.skipped, r.failed)
	}
	t.Setenv(RequireToolsEnv, "1")
	r = &recordTB{TB: t}
	missingTool(r, "ripgrep", "no rg on $PATH")
	if r.skipped != "" || !strings.Contains(r.failed, "ripgrep is not installed") {
		t.Errorf("with %s: skipped %q, failed %q; want a failure naming the tool", RequireToolsEnv, r.skipped, r.failed)
	}
}
