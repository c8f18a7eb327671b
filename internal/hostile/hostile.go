// Package hostile supports the hostile-input tests of this module's
// packages: it runs a piece of code under a bound on its CPU time (and its
// memory), with a generous wall-clock bound only to catch hangs,
// turning a panic into a test failure, skips tests that the race detector
// would distort, and deep-copies inputs so that a test can check that a
// function left them alone.
package hostile

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// Limit is the generous bound on the CPU time one hostile input may take.
// It is CPU time, not wall-clock time, so that a loaded machine (a build
// beside the tests, a cold build cache) does not make a test fail: a
// quadratic blow-up or a busy loop still exceeds it, as they take CPU time
// however busy the machine is.
const Limit = 20 * time.Second

// HangLimit bounds the wall-clock time of a piece of code under Run when
// the test has no deadline (go test -timeout 0). Code that blocks takes no
// CPU time, so only a wall-clock bound catches it; this one, like the
// test's deadline that Run otherwise uses, is one that code which computes
// meets even on a machine where it gets a twentieth of a core.
const HangLimit = 10 * time.Minute

// pollInterval is how often Run reads the clocks while f runs.
const pollInterval = 20 * time.Millisecond

// A cpuClock reads a CPU-time clock; ok is false when it cannot.
type cpuClock func() (d time.Duration, ok bool)

// Run runs f on its own goroutine, locked to its own OS thread, and fails t
// when f panics, when f takes more than limit of CPU time, or when f hangs:
// does not return before the test's deadline (go test -timeout, ten minutes
// by default), less a margin to report it, or within HangLimit without one.
//
// The CPU time is that of f's thread on Linux; elsewhere it is that of the
// whole process (more than f's, so the bound errs on the safe side), and on
// systems without a CPU-time clock Run bounds only the wall-clock time.
// Goroutines that f starts are not counted, except by the wall-clock bound.
// f may call t.Fatal: Run then ends the test too.
func Run(t testing.TB, limit time.Duration, f func()) {
	t.Helper()
	hang := HangLimit
	if dt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, ok := dt.Deadline(); ok {
			// Leave the testing package time to report the failure.
			left := time.Until(deadline)
			hang = max(left-left/20-time.Second, time.Second)
		}
	}
	run(t, limit, hang, f)
}

// run is Run with the wall-clock bound hang.
func run(t testing.TB, limit, hang time.Duration, f func()) {
	t.Helper()
	type result struct {
		cpu    time.Duration
		panic  string
		goexit bool
	}
	// cpu reports the CPU time f has taken so far.
	started := make(chan func() (time.Duration, bool), 1)
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		clock := threadClock()
		start, _ := clock()
		started <- func() (time.Duration, bool) { return used(clock, start) }
		panicked := true
		defer func() {
			r := result{}
			r.cpu, _ = used(clock, start)
			if panicked {
				if v := recover(); v != nil {
					r.panic = fmt.Sprintf("panic: %v\n%s", v, debug.Stack())
				} else {
					// f called runtime.Goexit: t.FailNow, on t or a subtest.
					r.goexit = true
				}
			}
			done <- r
		}()
		f()
		panicked = false
	}()
	cpu := <-started
	wallStart := time.Now()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			if r.panic != "" {
				t.Fatal(r.panic)
			}
			if r.goexit {
				// f has reported its failure already (t.Fatal).
				t.FailNow()
			}
			if r.cpu > limit {
				t.Fatalf("took %v of CPU time (%s); the limit is %v", r.cpu.Round(time.Millisecond), clockScope, limit)
			}
			return
		case <-tick.C:
			c, ok := cpu()
			if ok && c > limit {
				t.Fatalf("still running after %v of CPU time (%s); the limit is %v", c.Round(time.Millisecond), clockScope, limit)
			}
			if wall := time.Since(wallStart); wall > hang {
				t.Fatalf("hangs: did not finish within %v of wall-clock time (%v of CPU time, %s; CPU limit %v)",
					wall.Round(time.Millisecond), c.Round(time.Millisecond), clockScope, limit)
			}
		}
	}
}

// used returns the CPU time clock has counted since start.
func used(clock cpuClock, start time.Duration) (time.Duration, bool) {
	now, ok := clock()
	return now - start, ok
}

// RunAlloc runs f under Run with Limit and fails t when f allocates more
// than maxBytes.
func RunAlloc(t testing.TB, maxBytes uint64, f func()) {
	t.Helper()
	var before, after runtime.MemStats
	Run(t, Limit, func() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
	})
	if n := after.TotalAlloc - before.TotalAlloc; n > maxBytes {
		t.Errorf("allocated %d MB, want at most %d MB", n>>20, maxBytes>>20)
	}
}

// SkipUnderRace skips a test in a binary built with the race detector: a
// hostile-input test runs on one goroutine, so the detector only makes it
// about ten times slower, and it changes allocation counts (it drops pooled
// values at random). Run without -race, the test checks what it is for.
func SkipUnderRace(t *testing.T) {
	t.Helper()
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" && s.Value == "true" {
				t.Skip("skipped under the race detector, which makes it slow or changes what it measures")
			}
		}
	}
}

// Clone returns a deep copy of v (exported fields; unexported ones are
// copied shallowly), so that a test can check that a function left its
// input alone: reflect.DeepEqual(input, clone) after the call.
func Clone[T any](v T) T {
	var out T
	reflect.ValueOf(&out).Elem().Set(cloneValue(reflect.ValueOf(&v).Elem()))
	return out
}

func cloneValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(cloneValue(v.Elem()))
		return n
	case reflect.Interface:
		n := reflect.New(v.Type()).Elem()
		if !v.IsNil() {
			n.Set(cloneValue(v.Elem()))
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			n.SetMapIndex(it.Key(), cloneValue(it.Value()))
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			n.Index(i).Set(cloneValue(v.Index(i)))
		}
		return n
	case reflect.Array:
		n := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			n.Index(i).Set(cloneValue(v.Index(i)))
		}
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		for i := range v.NumField() {
			if n.Field(i).CanSet() {
				n.Field(i).Set(cloneValue(v.Field(i)))
			}
		}
		return n
	}
	return v
}
