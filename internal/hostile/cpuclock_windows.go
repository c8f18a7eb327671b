package hostile

import (
	"syscall"
	"time"
)

// threadClock returns a clock of the CPU time of the whole process (user and
// kernel): it counts the runtime's other threads too, so it errs on the safe
// side.
func threadClock() cpuClock {
	return func() (time.Duration, bool) {
		var creation, exit, kernel, user syscall.Filetime
		h, err := syscall.GetCurrentProcess()
		if err != nil || syscall.GetProcessTimes(h, &creation, &exit, &kernel, &user) != nil {
			return 0, false
		}
		// Filetime counts 100-nanosecond intervals.
		ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
		return time.Duration((ticks(kernel) + ticks(user)) * 100), true
	}
}

const clockScope = "the process"
