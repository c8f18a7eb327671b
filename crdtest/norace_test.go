//go:build !race

package crdtest

// raceEnabled is set when the race detector is on.
const raceEnabled = false
