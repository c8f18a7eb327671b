package hostile

import (
	"syscall"
	"time"
	"unsafe"
)

// threadClock returns a clock of the CPU time of the calling OS thread,
// readable from any thread: clock_gettime on the thread's CPU-time clock,
// whose id the kernel builds from the thread id (MAKE_THREAD_CPUCLOCK in
// linux/posix-timers.h: the complemented id shifted by three, ORed with
// CPUCLOCK_PERTHREAD_MASK and CPUCLOCK_SCHED). The caller must have locked
// its goroutine to the thread.
func threadClock() cpuClock {
	id := int32(^uint32(syscall.Gettid())<<3) | 4 | 2
	return func() (time.Duration, bool) {
		var ts syscall.Timespec
		if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(id), uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
			return 0, false
		}
		return time.Duration(ts.Nano()), true
	}
}

const clockScope = "this goroutine's thread"
