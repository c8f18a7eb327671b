//go:build !race

package costs

// raceEnabled is set when the race detector is on.
const raceEnabled = false
