package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestTuneGC checks the collector's two phases: off (GOGC -1) under the
// memory limit firstCollection, then, once a collection has run, gcPercent
// without a limit.
func TestTuneGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	percent := func() int { p := debug.SetGCPercent(-2); debug.SetGCPercent(p); return p }
	// the sentinels of earlier runs in this process (other tests call
	// run) end their phases on the collections before this one
	for i := 0; i < 10; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	tuneGC()
	// Under the limit of the first phase, a process whose live heap is
	// already over it (the test binary, after other tests) collects at
	// once, which ends the first phase: then the second is in force.
	switch p, l := percent(), debug.SetMemoryLimit(-1); {
	case p == -1 && l == firstCollection:
	case p == gcPercent && l == math.MaxInt64:
		t.Logf("the first phase ended at once (a collection ran under its limit)")
	default:
		t.Fatalf("first phase: GOGC %d, limit %d; want off under %d", p, l, firstCollection)
	}
	// The finalizer runs after a collection, on the finalizer goroutine.
	for i := 0; i < 1000 && percent() != gcPercent; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if p, l := percent(), debug.SetMemoryLimit(-1); p != gcPercent || l != math.MaxInt64 {
		t.Errorf("after a collection: GOGC %d, limit %d; want %d without a limit", p, l, gcPercent)
	}
}

// TestTuneGCRespectsEnvironment checks that GOGC or GOMEMLIMIT set by the
// user leave the collector alone.
func TestTuneGCRespectsEnvironment(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		t.Setenv(env, "100")
		debug.SetGCPercent(123)
		tuneGC()
		if p := debug.SetGCPercent(123); p != 123 {
			t.Errorf("with %s set, GOGC became %d", env, p)
		}
	}
}
