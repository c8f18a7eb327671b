package celrules

import (
	"context"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/structural"
)

// TestLazyTrackedPrograms checks that a lazy compilation defers the
// programs with cost tracking to their first use: bounded runs, which use
// untracked programs, never make them; a tracked run makes them once; the
// errors are those of an eager compilation either way.
func TestLazyTrackedPrograms(t *testing.T) {
	s := obj(map[string]*structural.Schema{"x": str("string")})
	s.Properties["x"].ValueValidation = &structural.ValueValidation{MaxLength: i64(10)}
	s.XValidations = []crdschema.ValidationRule{
		{Rule: "self.x.size() < 3", MessageExpression: "'too long: ' + self.x"},
		{Rule: "self.x != 'bad'"},
	}
	v, err := jsonscan.Decode([]byte(`{"x":"bad"}`))
	if err != nil {
		t.Fatal(err)
	}
	eager, err := Compile(s, false)
	if err != nil {
		t.Fatal(err)
	}
	vr1 := eager.Validate(context.Background(), nil, v, nil)
	want, wantLeft := vr1.Errors, vr1.Remaining
	if len(want) != 2 || !strings.Contains(want[0].Error(), "too long: bad") {
		t.Fatalf("eager compilation: %q", errorTexts(want))
	}
	for _, r := range eager.root.rules {
		p, err := r.trackedProgram(false)
		if p == nil || err != nil {
			t.Errorf("%q: no program with cost tracking: %v", r.src.Rule, err)
		}
		if r.src.MessageExpression != "" {
			if p, err := r.trackedProgram(true); p == nil || err != nil {
				t.Errorf("%q: no messageExpression program with cost tracking: %v", r.src.Rule, err)
			}
		}
	}

	lazy, err := Compile(s, false, LazyCompile())
	if err != nil {
		t.Fatal(err)
	}
	got := lazy.Validate(context.Background(), nil, v, nil, WithBoundedCost()).Errors
	if !equalStrings(errorTexts(got), errorTexts(want)) {
		t.Errorf("bounded run: %q, want %q", errorTexts(got), errorTexts(want))
	}
	made := func() (n int) {
		for _, r := range lazy.root.rules {
			if r.rule.program != nil || r.message.program != nil || r.tracked.programs[0] != nil || r.tracked.programs[1] != nil {
				n++
			}
		}
		return n
	}
	if n := made(); n != 0 {
		t.Errorf("after a bounded run, %d rules have programs with cost tracking; want none", n)
	}
	vr2 := lazy.Validate(context.Background(), nil, v, nil)
	got, gotLeft := vr2.Errors, vr2.Remaining
	if !equalStrings(errorTexts(got), errorTexts(want)) || gotLeft != wantLeft {
		t.Errorf("tracked run: %q, %d left; want %q, %d left", errorTexts(got), gotLeft, errorTexts(want), wantLeft)
	}
	if n := made(); n != 2 {
		t.Errorf("after a tracked run, %d rules have programs with cost tracking; want 2", n)
	}
	first := lazy.root.rules[0].tracked.programs[0]
	lazy.Validate(context.Background(), nil, v, nil)
	if lazy.root.rules[0].tracked.programs[0] != first {
		t.Error("a second tracked run made the program again")
	}
}

// TestLazyProgramErrors checks that programs whose creation fails (the
// planner folds a constant conversion that fails, or compiles a constant
// pattern that does not) are still made at compilation when the
// compilation is lazy, so that the failure is the rule's compile error, as
// in an eager compilation.
func TestLazyProgramErrors(t *testing.T) {
	v, _ := jsonscan.Decode([]byte(`{"s":"a","a":1,"b":2}`))
	n := 0
	for _, tt := range planRules {
		if tt.failDetail == "" {
			continue
		}
		n++
		s := fuzzSchema(crdschema.ValidationRule{Rule: tt.rule})
		for _, opts := range [][]Option{nil, {LazyCompile()}} {
			c, err := Compile(s, false, opts...)
			if err != nil {
				t.Fatal(err)
			}
			for _, vopts := range [][]ValidateOption{nil, {WithBoundedCost()}} {
				errs := c.Validate(context.Background(), nil, v, nil, vopts...).Errors
				if len(errs) != 1 || !strings.Contains(errs[0].Detail, tt.failDetail) {
					t.Errorf("%q (lazy %v, bounded %v): %q, want the rule's instantiation error", tt.rule, len(opts) > 0, len(vopts) > 0, errorTexts(errs))
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no rule whose program creation fails")
	}
}
