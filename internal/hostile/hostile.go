// Package hostile supports the hostile-input tests of this module's
// packages: it runs a piece of code under a bound on time (and memory),
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

// Limit is the generous bound on the time one hostile input may take on a
// busy machine.
const Limit = 20 * time.Second

// Run runs f on its own goroutine and fails t when f panics or does not
// return within limit.
func Run(t testing.TB, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		panicked := true
		defer func() {
			if panicked {
				done <- fmt.Sprintf("panic: %v\n%s", recover(), debug.Stack())
			}
		}()
		f()
		panicked = false
		done <- ""
	}()
	select {
	case msg := <-done:
		if msg != "" {
			t.Fatal(msg)
		}
	case <-time.After(limit):
		t.Fatalf("did not finish within %v", limit)
	}
}

// Allocated returns the bytes f allocates.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// RunAlloc runs f under Run with Limit and fails t when f allocates more
// than maxBytes.
func RunAlloc(t testing.TB, maxBytes uint64, f func()) {
	t.Helper()
	var n uint64
	Run(t, Limit, func() { n = Allocated(f) })
	if n > maxBytes {
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
