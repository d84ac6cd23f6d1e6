package rewrite

import (
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// TestMain keeps the journals of the tests' applies out of the user's
// cache directory.
func TestMain(m *testing.M) { testutil.RunWithPrivateCache(m) }
