package testutil

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Capped is how a command run under a memory cap ended.
type Capped struct {
	Stdout, Stderr []byte
	ExitCode       int    // -1 when killed by a signal
	Signal         string // the signal that killed it, if one did
	PeakRSS        int64  // bytes: the largest resident set the process reached
	TimedOut       bool   // the run passed its time bound and was killed
}

// RunCapped runs name with args under an address-space cap of capBytes
// (RLIMIT_AS, set with prlimit(1) on the child alone, so the test process
// is not capped), with stdin as its input, killing it after timeout. It
// returns how the run ended and its peak RSS, as the kernel counted it
// (getrusage's ru_maxrss). The tests of hostile inputs use it to show that a
// bomb ends in a clean error with the process's memory bounded, not in the
// kernel or the Go runtime killing it.
func RunCapped(t testing.TB, capBytes int64, timeout time.Duration, stdin []byte, dir string, name string, args ...string) Capped {
	t.Helper()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("prlimit (util-linux) is needed to cap a test's memory: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prlimit, append([]string{"--as=" + strconv.FormatInt(capBytes, 10), "--", name}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %s: %v", name, err)
	}
	r := Capped{Stdout: out.Bytes(), Stderr: errOut.Bytes(), TimedOut: ctx.Err() != nil}
	st := cmd.ProcessState
	r.ExitCode = st.ExitCode()
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		r.Signal = ws.Signal().String()
	}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		r.PeakRSS = ru.Maxrss << 10 // Linux counts ru_maxrss in KiB
	}
	return r
}
