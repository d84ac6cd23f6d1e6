package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// The external tools the differential tests compare against. Plain `go
// test ./...` skips a test whose tool is missing, with a message naming the
// tool and how to get it (as gopls's testenv.NeedsTool does);
// scripts/test.sh installs every tool and sets STRUCTLS_REQUIRE_TOOLS, under
// which a missing tool fails the test instead, so a run of the whole suite
// cannot pass with a comparison left out.

// RequireToolsEnv, when set (to anything), makes a missing tool a failure.
const RequireToolsEnv = "STRUCTLS_REQUIRE_TOOLS"

// AstGrep returns the path of the pinned ast-grep CLI: $STRUCTLS_AST_GREP,
// else .tools/ at the repository root, where scripts/test.sh installs it.
func AstGrep(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("STRUCTLS_AST_GREP"); p != "" {
		return p
	}
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "..", ".tools", "node_modules", ".bin", "ast-grep")
	if _, err := os.Stat(p); err != nil {
		missingTool(t, "the ast-grep CLI", "not at "+p+" (nor named by $STRUCTLS_AST_GREP)")
	}
	return p
}

// Ripgrep returns the path of ripgrep (Debian's `rg`) on $PATH.
func Ripgrep(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("rg")
	if err != nil {
		missingTool(t, "ripgrep", "no rg on $PATH (apt-get install ripgrep)")
	}
	return p
}

// Gopls returns the path of gopls: $STRUCTLS_GOPLS, $PATH, or
// $(go env GOPATH)/bin, where scripts/test.sh installs the pinned one.
func Gopls(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("STRUCTLS_GOPLS"); p != "" {
		return p
	}
	if p, err := exec.LookPath("gopls"); err == nil {
		return p
	}
	home, _ := os.UserHomeDir()
	p := filepath.Join(home, "go", "bin", "gopls")
	if _, err := os.Stat(p); err != nil {
		missingTool(t, "gopls", "not on $PATH nor at "+p+" (nor named by $STRUCTLS_GOPLS)")
	}
	return p
}

// missingTool skips the test, or fails it under scripts/test.sh.
func missingTool(t testing.TB, tool, where string) {
	t.Helper()
	if os.Getenv(RequireToolsEnv) != "" {
		t.Fatalf("%s is not installed: %s; scripts/test.sh installs it", tool, where)
		return
	}
	t.Skipf("%s is not installed: %s; run scripts/test.sh, which installs it and runs this test", tool, where)
}
