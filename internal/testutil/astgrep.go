package testutil

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// AstGrep returns the path of the pinned ast-grep CLI the differential
// tests compare against: $STRUCTLS_AST_GREP, else .tools/ at the repository
// root, where scripts/test.sh installs it. A missing CLI fails the test
// rather than skipping it, so a CI run without it cannot pass unnoticed.
func AstGrep(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("STRUCTLS_AST_GREP"); p != "" {
		return p
	}
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "..", ".tools", "node_modules", ".bin", "ast-grep")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the ast-grep CLI is not installed at %s: run scripts/test.sh (it installs the pinned @ast-grep/cli into .tools)", p)
	}
	return p
}
