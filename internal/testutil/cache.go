package testutil

import (
	"fmt"
	"os"
	"testing"
)

// RunWithPrivateCache runs a package's tests (call it from TestMain) with
// XDG_CACHE_HOME set to a directory of their own, removed afterwards: the
// journals of the applies the tests make (atomicwrite's journal.go) stay
// out of the user's cache directory. It does not return.
func RunWithPrivateCache(m *testing.M) {
	cache, err := os.MkdirTemp("", "structls-test-cache-")
	if err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}
