//go:build !unix && !windows

package hostile

import "time"

// threadClock returns no CPU-time clock: this system has none that the
// syscall package reaches, so Run bounds only the wall-clock time.
func threadClock() cpuClock {
	return func() (time.Duration, bool) { return 0, false }
}

const clockScope = "none"
