package testutil

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
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
//
// The peak is measured through a small intermediate process, this test
// binary started afresh (see init): Go starts a child with vfork, sharing
// the parent's memory until the exec, and the kernel counts that memory's
// high-water mark into the child's ru_maxrss at the exec, so a command
// started straight from a large test process (a -race one holds 1.4 GB)
// would report at least the test process's own peak. The intermediate is
// small when it starts the command, so what it reports is the command's.
func RunCapped(t testing.TB, capBytes int64, timeout time.Duration, stdin []byte, dir string, name string, args ...string) Capped {
	t.Helper()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("prlimit (util-linux) is needed to cap a test's memory: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatalf("finding the test binary to measure through: %v", err)
	}
	report, reportW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer report.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, append([]string{"--as=" + strconv.FormatInt(capBytes, 10), "--", name}, args...)...)
	cmd.Env = append(os.Environ(), cappedChildEnv+"="+prlimit)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.ExtraFiles = []*os.File{reportW} // fd 3 in the intermediate
	// The command runs in the intermediate's process group, so a timeout
	// kills both, not the intermediate alone.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Start()
	reportW.Close()
	if err != nil {
		t.Fatalf("running %s: %v", name, err)
	}
	err = cmd.Wait()
	r := Capped{Stdout: out.Bytes(), Stderr: errOut.Bytes(), TimedOut: ctx.Err() != nil}
	var line bytes.Buffer
	line.ReadFrom(report)
	if _, serr := fmt.Sscanf(line.String(), "%d %q %d", &r.ExitCode, &r.Signal, &r.PeakRSS); serr != nil {
		if r.TimedOut {
			r.ExitCode, r.Signal = -1, syscall.SIGKILL.String()
			return r
		}
		t.Fatalf("running %s: the measuring process reported %q (%v; its exit: %v); stderr:\n%s", name, line.String(), serr, err, errOut.Bytes())
	}
	if r.Signal == "-" {
		r.Signal = ""
	}
	return r
}

// cappedChildEnv marks the intermediate process of RunCapped; its value is
// the path of prlimit.
const cappedChildEnv = "STRUCTLS_TESTUTIL_CAPPED_CHILD"

// init turns a test binary started by RunCapped into its intermediate: it
// runs prlimit with the arguments it was given, then writes to fd 3 how the
// command ended ("EXIT SIGNAL PEAK-BYTES") and exits. It runs before any test
// is set up, so the process is still small when it starts the command.
func init() {
	prlimit := os.Getenv(cappedChildEnv)
	if prlimit == "" {
		return
	}
	os.Unsetenv(cappedChildEnv)
	report := os.NewFile(3, "report")
	cmd := exec.Command(prlimit, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintf(os.Stderr, "testutil.RunCapped: %v\n", err)
		os.Exit(125)
	}
	st := cmd.ProcessState
	signal := "-"
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		signal = ws.Signal().String()
	}
	var peak int64
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		peak = ru.Maxrss << 10 // Linux counts ru_maxrss in KiB
	}
	fmt.Fprintf(report, "%d %q %d\n", st.ExitCode(), signal, peak)
	os.Exit(0)
}
