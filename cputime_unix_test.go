//go:build unix

package crdschema

import (
	"syscall"
	"time"
)

// cpuTime returns the user and system CPU time of the process so far, or
// 0 where it is not known.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
