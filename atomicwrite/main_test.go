package atomicwrite

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the journals of the tests' applies (journal.go) out of the
// user's cache directory.
func TestMain(m *testing.M) {
	cache, err := os.MkdirTemp("", "structls-rewrite-cache-")
	if err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}
