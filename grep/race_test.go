//go:build race

package grep

// raceEnabled: the race detector's sync.Pool drops items at random, so the
// regexp package allocates machines that a normal build reuses.
const raceEnabled = true
