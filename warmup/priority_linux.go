package warmup

import "syscall"

// lowestPriority is the nice value of the background thread: the kernel
// gives it CPU time only when nothing else wants it.
const lowestPriority = 19

// lowerThreadPriority gives the calling OS thread the lowest priority. On
// Linux a thread id passed as PRIO_PROCESS names that thread alone. Failing
// is harmless (the work is still paused while requests run), so it is not
// reported.
func lowerThreadPriority() {
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), lowestPriority)
}
