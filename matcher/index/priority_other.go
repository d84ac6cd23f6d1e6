//go:build !linux

package index

// lowerThreadPriority does nothing where threads have no priority of their
// own that Go can set: the work is still paused while requests run.
func lowerThreadPriority() {}
