package crd

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestDefaultsBoundedPass checks that the defaults' rules, which run
// without cost tracking first, give the errors of tracked runs: also when
// their bounds add up to more than the budget while their exact costs do
// not, so that the bounded walk runs out and the walk is done again.
func TestDefaultsBoundedPass(t *testing.T) {
	// p00...p29: rules whose bounds (declared sizes) add up to more than
	// the budget, on cheap defaults (empty lists); q00...q59: the same with
	// smaller bounds, which take what the bounds leave of the budget down
	// to a few thousand; then z0...z3: rules that cost about five thousand
	// each when run, on long strings.
	var props []string
	for i := range 30 {
		props = append(props, fmt.Sprintf(`"p%02d": {"type": "object", "default": {"l": []},
			"properties": {"l": {"type": "array", "maxItems": 50000, "items": {"type": "integer"}}},
			"x-kubernetes-validations": [{"rule": "self.l.all(x, x > 0)"}, {"rule": "self.l.size() == 1", "message": "p%02d needs an item"}]}`, i, i))
	}
	for i := range 60 {
		props = append(props, fmt.Sprintf(`"q%02d": {"type": "object", "default": {"l": []},
			"properties": {"l": {"type": "array", "maxItems": 1000, "items": {"type": "integer"}}},
			"x-kubernetes-validations": [{"rule": "self.l.all(x, x > 0)"}]}`, i))
	}
	long := strings.Repeat("a", 50000)
	for i := range 4 {
		props = append(props, fmt.Sprintf(`"z%d": {"type": "object", "default": {"s": %q},
			"properties": {"s": {"type": "string", "maxLength": 50000}},
			"x-kubernetes-validations": [{"rule": "self.s.matches('^a*$')"}]}`, i, long))
	}
	small := `{"type": "object", "properties": {"q": {"type": "object", "default": {"l": []},
		"properties": {"l": {"type": "array", "maxItems": 5, "items": {"type": "integer"}}},
		"x-kubernetes-validations": [{"rule": "self.l.all(x, x > 0)"}, {"rule": "self.l.size() == 1", "message": "q needs an item"}]}}}`
	for _, tt := range []struct {
		name, spec string
		runsOut    bool // the bounds add up to more than the budget
	}{
		{"bounds beyond the budget", `{"type": "object", "properties": {` + strings.Join(props, ",") + `}}`, true},
		{"bounds within the budget", small, false},
	} {
		def := cacheCRD(t, tt.spec, false)
		errs := func(passes []bool) []string {
			defer func(p []bool) { defaultsPasses = p }(defaultsPasses)
			defaultsPasses = passes
			return errorTexts(Validate(context.Background(), def))
		}
		tracked := errs([]bool{false})
		if n := strings.Count(strings.Join(tracked, "\n"), "needs an item"); n == 0 {
			t.Fatalf("%s: no rule failed on the defaults: %q", tt.name, tracked)
		}
		if got := errs([]bool{true, false}); !slices.Equal(got, tracked) {
			t.Errorf("%s: got %q\nwant (tracked) %q", tt.name, got, tracked)
		}
		if boundedOnly := errs([]bool{true}); slices.Equal(boundedOnly, tracked) == tt.runsOut {
			t.Errorf("%s: the bounded walk alone gives %q; runs out of budget: %v", tt.name, boundedOnly, tt.runsOut)
		}
	}
}
