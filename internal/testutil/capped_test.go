package testutil

import (
	"os"
	"testing"
	"time"
)

// TestRunCapped: the peak RSS is the child's, and the cap is the child's.
func TestRunCapped(t *testing.T) {
	hog := []string{"-test.run=^TestHog$"}
	t.Setenv("STRUCTLS_TESTUTIL_HOG", "1")
	r := RunCapped(t, 4<<30, time.Minute, nil, t.TempDir(), os.Args[0], hog...)
	if r.ExitCode != 3 || r.PeakRSS < 150<<20 {
		t.Fatalf("uncapped hog: exit %d (want 3), peak %d MB (want ≥ 150), stderr %s", r.ExitCode, r.PeakRSS>>20, r.Stderr)
	}
	r = RunCapped(t, 150<<20, time.Minute, nil, t.TempDir(), os.Args[0], hog...)
	if r.ExitCode == 0 || r.ExitCode == 3 || r.PeakRSS > 150<<20 {
		t.Fatalf("capped hog: exit %d (want a failure), peak %d MB (want ≤ 150)", r.ExitCode, r.PeakRSS>>20)
	}
}

// TestHog is TestRunCapped's child: it touches 200 MB, then exits 3.
func TestHog(t *testing.T) {
	if os.Getenv("STRUCTLS_TESTUTIL_HOG") == "" {
		t.Skip("the child of TestRunCapped")
	}
	b := make([]byte, 200<<20)
	for i := range b {
		b[i] = 1
	}
	os.Exit(3)
}
