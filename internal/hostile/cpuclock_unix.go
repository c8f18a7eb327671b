//go:build unix && !linux

package hostile

import (
	"syscall"
	"time"
)

// threadClock returns a clock of the CPU time of the whole process (user and
// system), the finest that getrusage gives outside Linux: it counts the
// runtime's other threads too, so it errs on the safe side.
func threadClock() cpuClock {
	return func() (time.Duration, bool) {
		var ru syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
			return 0, false
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
	}
}

const clockScope = "the process"
