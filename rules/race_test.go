//go:build race

package rules

// raceEnabled: the race detector's sync.Pool drops items at random, so the
// maps of failed tries (see matcher.Env) are made again where a normal
// build reuses them, and allocation counts say nothing.
const raceEnabled = true
