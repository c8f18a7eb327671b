package celrules

import (
	"context"
	"sync"
	"testing"

	"github.com/crdschema/crdschema/structural"
)

// TestConcurrentValidate checks, under -race, that one Compiled serves
// many goroutines.
func TestConcurrentValidate(t *testing.T) {
	item := obj(map[string]*structural.Schema{"k": str("string"), "v": str("integer")})
	s := obj(map[string]*structural.Schema{"ml": listOf(item, "map", "k"), "set": listOf(str("string"), "set")},
		rule("self.ml.all(e, e.v > 0)"), rule("self.set == self.set"), rule("self.ml == self.ml"))
	c, err := Compile(s, true)
	if err != nil {
		t.Fatal(err)
	}
	o := map[string]any{"ml": []any{map[string]any{"k": "a", "v": int64(-1)}}, "set": []any{"x", "y"}}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				errs := c.Validate(context.Background(), nil, o, o).Errors
				if len(errs) != 1 || errs[0].Detail != "failed rule: self.ml.all(e, e.v > 0)" {
					t.Errorf("got %v", errs)
					return
				}
			}
		}()
	}
	wg.Wait()
}
