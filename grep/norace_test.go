//go:build !race

package grep

const raceEnabled = false
