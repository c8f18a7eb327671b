package validation_test

import (
	"fmt"
	"github.com/crdschema/crdschema/internal/objectcheck"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/ratchet"
)

// TestConcurrentValidator validates different objects with one Validator
// from many goroutines (run with -race): every result is the sequential
// one, and no object is modified.
func TestConcurrentValidator(t *testing.T) {
	schemaJSON, err := os.ReadFile("testdata/httproute-v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	objJSON, err := os.ReadFile("testdata/httproute.json")
	if err != nil {
		t.Fatal(err)
	}
	v, s := validatorOf(t, string(schemaJSON))
	const n = 8
	objs := make([]any, n)
	for i := range objs {
		o, err := jsonscan.Decode(objJSON)
		if err != nil {
			t.Fatal(err)
		}
		spec := o.(map[string]any)["spec"].(map[string]any)
		switch i % 4 {
		case 1:
			spec["hostnames"] = []any{"-bad-", strings.Repeat("x", 300), int64(i)}
		case 2:
			spec["parentRefs"] = "x"
		case 3:
			spec["rules"] = []any{map[string]any{"matches": []any{map[string]any{"path": map[string]any{"type": "Nope"}}}}}
		}
		objs[i] = o
	}
	run := func(i int) string {
		o := objs[i]
		errs := v.Validate(nil, o)
		u := v.ValidateUpdate(nil, o, ratchet.Correlate(o, o, s))
		uerrs, warns := u.Errors, u.Warnings
		lerrs := objectcheck.ListSetsAndMaps(nil, o.(map[string]any), s)
		eerrs := objectcheck.EmbeddedMeta(nil, o, s, true)
		return fmt.Sprint(keys(errs), keys(uerrs), keys(warns), keys(lerrs), keys(eerrs))
	}
	want := make([]string, n)
	for i := range n {
		want[i] = run(i)
	}
	if want[1] == want[0] || !strings.Contains(want[1], "hostnames") {
		t.Fatalf("variants are not rejected: %s", want[1])
	}
	before := fmt.Sprint(objs)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 4 * n {
				i := (g + k) % n
				if got := run(i); got != want[i] {
					t.Errorf("object %d: concurrent result differs:\n%s\nwant\n%s", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	if fmt.Sprint(objs) != before {
		t.Error("objects were modified")
	}
}
