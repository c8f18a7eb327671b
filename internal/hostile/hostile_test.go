package hostile

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestClone(t *testing.T) {
	type inner struct{ M map[string]any }
	in := &inner{M: map[string]any{"a": []any{int64(1), map[string]any{"b": "c"}}}}
	out := Clone(in)
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("clone differs: %#v", out)
	}
	out.M["a"].([]any)[1].(map[string]any)["b"] = "changed"
	if in.M["a"].([]any)[1].(map[string]any)["b"] != "c" {
		t.Error("the clone shares memory with its original")
	}
}

func TestRun(t *testing.T) {
	ran := false
	Run(t, time.Second, func() { ran = true })
	if !ran {
		t.Error("f did not run")
	}
	// A panic, a busy loop and a hang fail the test; run them on a test of
	// their own. The busy loop and the hang end when the check is over.
	stop := make(chan struct{})
	defer close(stop)
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"panic", func() { panic("boom") }, "panic: boom"},
		{"busy loop", func() { spin(stop) }, "still running after"},
		{"hang", func() { <-stop }, "hangs: did not finish within"},
		{"t.Fatal in f", func() { runtimeGoexit() }, ""},
	} {
		hang := time.Minute
		if tc.name == "hang" {
			hang = 200 * time.Millisecond
		}
		if tc.name == "busy loop" && !hasClock() {
			t.Log("no CPU-time clock on " + runtime.GOOS + ": a busy loop is caught as a hang")
			tc.want, hang = "hangs:", 200*time.Millisecond
		}
		ft := &fakeT{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			// The wall-clock bound is long enough for the busy loop to
			// reach its CPU limit on a busy machine.
			run(ft, 50*time.Millisecond, hang, tc.f)
		}()
		<-done
		if !ft.failed || !strings.Contains(ft.msg, tc.want) {
			t.Errorf("%s: Run failed %v with %q, want a failure with %q", tc.name, ft.failed, ft.msg, tc.want)
		}
	}
}

// TestRunHangsBeforeDeadline: code that blocks fails the test before the
// test's deadline, with time to report it.
func TestRunHangsBeforeDeadline(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	ft := &fakeT{deadline: time.Now().Add(4 * time.Second)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ft, Limit, func() { <-stop })
	}()
	<-done
	if !ft.failed || !strings.Contains(ft.msg, "hangs:") {
		t.Errorf("blocked until the deadline: failed %v with %q", ft.failed, ft.msg)
	}
	// Run gives up 1.2s before the deadline (a twentieth of the time left,
	// and a second).
	if left := time.Until(ft.deadline); left <= 0 {
		t.Errorf("failed %v after the deadline", -left)
	}
}

// TestRunBoundsCPUTime: code that waits (as code does on a loaded machine,
// for a core) may take longer than its limit in wall-clock time, as long as
// it takes less CPU time; code that computes longer than its limit fails
// even when it would end.
func TestRunBoundsCPUTime(t *testing.T) {
	if !hasClock() {
		t.Skip("no CPU-time clock on " + runtime.GOOS + "; Run bounds only the wall-clock time here")
	}
	Run(t, 100*time.Millisecond, func() { time.Sleep(300 * time.Millisecond) })
	ft := &fakeT{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ft, 100*time.Millisecond, time.Minute, func() { burn(150 * time.Millisecond) })
	}()
	<-done
	if !ft.failed || !strings.Contains(ft.msg, "of CPU time") || !strings.Contains(ft.msg, "the limit is 100ms") {
		t.Errorf("150ms of computing under a 100ms limit: failed %v with %q", ft.failed, ft.msg)
	}
}

func hasClock() bool {
	_, ok := threadClock()()
	return ok
}

// burn computes until the calling thread has taken d of CPU time.
func burn(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock := threadClock()
	start, _ := clock()
	for {
		if c, _ := used(clock, start); c >= d {
			return
		}
		spinOnce()
	}
}

// spin computes until stop is closed.
func spin(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
			spinOnce()
		}
	}
}

// sink keeps spinOnce's work from being optimized away.
var sink atomic.Uint64

func spinOnce() {
	x := sink.Load()
	for i := range 10000 {
		x = x*6364136223846793005 + uint64(i)
	}
	sink.Store(x)
}

// fakeT records a failure; Fatal ends the calling goroutine as the testing
// package's does.
type fakeT struct {
	testing.TB
	failed   bool
	msg      string
	deadline time.Time
}

func (f *fakeT) Deadline() (time.Time, bool) { return f.deadline, !f.deadline.IsZero() }

func (f *fakeT) Helper() {}

func (f *fakeT) FailNow() {
	f.failed = true
	runtimeGoexit()
}

func (f *fakeT) Fatal(args ...any) {
	f.failed = true
	f.msg = fmt.Sprint(args...)
	runtimeGoexit()
}

func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = fmt.Sprintf(format, args...)
	runtimeGoexit()
}

var runtimeGoexit = runtime.Goexit
