//go:build !race

package celrules

// raceEnabled is set when the race detector is on.
const raceEnabled = false
