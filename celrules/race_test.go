//go:build race

package celrules

// raceEnabled is set when the race detector is on: the data-driven tests
// that run for minutes skip then (they run without -race).
const raceEnabled = true
