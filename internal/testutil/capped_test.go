package testutil

import (
	"os"
	"runtime"
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
	r = RunCapped(t, 4<<30, time.Minute, nil, t.TempDir(), "sh", "-c", "kill -9 $$")
	if r.ExitCode != -1 || r.Signal != "killed" {
		t.Fatalf("a killed command: exit %d, signal %q; want -1, killed", r.ExitCode, r.Signal)
	}
}

// TestRunCappedMeasuresTheCommandAlone: a small command run from a large
// test process reports its own peak, not the test process's (a command
// started straight from it is charged the parent's high-water mark at exec).
func TestRunCappedMeasuresTheCommandAlone(t *testing.T) {
	big := make([]byte, 400<<20)
	for i := range big {
		big[i] = 1
	}
	r := RunCapped(t, 4<<30, time.Minute, nil, t.TempDir(), "true")
	runtime.KeepAlive(big)
	if r.ExitCode != 0 || r.PeakRSS > 100<<20 {
		t.Fatalf("true: exit %d, peak %d MB; want 0 and well under the test process's 400 MB", r.ExitCode, r.PeakRSS>>20)
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
