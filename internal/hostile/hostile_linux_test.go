package hostile

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestThreadClock: the thread's CPU-time clock, read from another thread,
// agrees with what getrusage reports for the thread itself, and does not
// count sleeping.
func TestThreadClock(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock := threadClock()
	start, ok := clock()
	if !ok {
		t.Fatal("the thread's CPU-time clock cannot be read")
	}
	self := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	selfStart := self()
	time.Sleep(100 * time.Millisecond)
	if slept, _ := used(clock, start); slept > 50*time.Millisecond {
		t.Errorf("100ms of sleep counted %v of CPU time", slept)
	}
	wall := time.Now()
	for time.Since(wall) < 200*time.Millisecond {
		spinOnce()
	}
	selfUsed := self() - selfStart
	fromOther := make(chan time.Duration)
	go func() { d, _ := used(clock, start); fromOther <- d }()
	other := <-fromOther
	// getrusage rounds to microseconds, and the other thread reads later.
	if other < selfUsed-time.Millisecond || other > selfUsed+20*time.Millisecond {
		t.Errorf("the clock read from another thread says %v, getrusage on the thread %v", other, selfUsed)
	}
	t.Logf("200ms of wall-clock computing: %v by the clock, %v by getrusage", other, selfUsed)
	if selfUsed == 0 {
		t.Error("200ms of computing counted no CPU time")
	}
}
