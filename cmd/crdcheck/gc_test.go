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
	tuneGC()
	percent := func() int { p := debug.SetGCPercent(-2); debug.SetGCPercent(p); return p }
	if p, l := percent(), debug.SetMemoryLimit(-1); p != -1 || l != firstCollection {
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
