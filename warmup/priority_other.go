//go:build !linux

package warmup

// lowerThreadPriority does nothing where threads have no priority of their
// own that Go can set: the work is still paused while requests run.
func lowerThreadPriority() {}
