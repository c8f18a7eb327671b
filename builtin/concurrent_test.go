package builtin

import (
	"sync"
	"testing"
)

// TestConcurrent: one API checks from many goroutines (its schema graph
// is built lazily) with the sequential results.
func TestConcurrent(t *testing.T) {
	seq := mustNew(t)
	want, _ := seq.Create(object(t, deployment))
	a := mustNew(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			obj := object(t, deployment)
			spec(obj)["replicas"] = "x"
			r, err := a.Create(object(t, deployment))
			if err != nil || r.Refused() != want.Refused() {
				t.Errorf("concurrent: %v %v", err, r.Err())
			}
			r, _ = a.Create(obj)
			if r.DecodeError == nil {
				t.Error("concurrent: replicas: x accepted")
			}
			for _, k := range a.Kinds()[:10] {
				a.Schema(k)
			}
		}()
	}
	wg.Wait()
}
