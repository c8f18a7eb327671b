package hostile

import (
	"reflect"
	"runtime"
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
	// A panic and a hang fail the test; run them on a test of their own.
	for name, f := range map[string]func(){
		"panic": func() { panic("boom") },
		"hang":  func() { time.Sleep(time.Second) },
	} {
		ft := &fakeT{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Run(ft, 50*time.Millisecond, f)
		}()
		<-done
		if !ft.failed {
			t.Errorf("%s: Run did not fail the test", name)
		}
	}
}

// fakeT records a failure; Fatal ends the calling goroutine as the testing
// package's does.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper() {}

func (f *fakeT) Fatal(...any) {
	f.failed = true
	runtimeGoexit()
}

func (f *fakeT) Fatalf(string, ...any) {
	f.failed = true
	runtimeGoexit()
}

var runtimeGoexit = runtime.Goexit
