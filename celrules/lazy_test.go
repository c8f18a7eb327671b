package celrules

import (
	"context"
	"sort"
	"sync"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/structural"
)

// lazySchema has rules at the root, in properties, in list items, in map
// values and in allOf, some of which do not compile.
func lazySchema() *structural.Schema {
	item := obj(map[string]*structural.Schema{"k": str("string"), "v": str("integer")},
		rule("self.v > 0"), rule("self.k + 1 == 2"))
	leaf := &structural.Schema{Generic: structural.Generic{Type: "string"},
		XValidations: []crdschema.ValidationRule{{Rule: "self.size() < 3", MessageExpression: "'too long: ' + self"}}}
	s := fuzzSchema(crdschema.ValidationRule{Rule: "self.a < self.b"}, crdschema.ValidationRule{Rule: "self.nope == 1"})
	s.Properties["ml"] = listOf(item, "map", "k")
	s.Properties["leaf"] = leaf
	s.Properties["mv"] = &structural.Schema{Generic: structural.Generic{Type: "object"},
		AdditionalProperties: &structural.SchemaOrBool{Bool: true, Schema: leaf}}
	s.Properties["nested"] = obj(map[string]*structural.Schema{"x": str("integer")}, rule("self.x != 3"), rule("oldSelf.x <= self.x"))
	s.ValueValidation = &structural.ValueValidation{AllOf: []structural.NestedValueValidation{{
		XValidations: []crdschema.ValidationRule{{Rule: "self.s != 'forbidden'"}},
	}}}
	return s
}

// errorTexts renders errors without the generated type names, which differ
// from one compilation to the next, sorted.
func errorTexts(errs crdschema.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = selfTypeName.ReplaceAllString(e.Error(), "selfType")
	}
	sort.Strings(out)
	return out
}

// TestLazyCompile checks that LazyCompile changes only when rules are
// compiled, not what Validate reports.
func TestLazyCompile(t *testing.T) {
	s := lazySchema()
	values := []string{
		`{"a":1,"b":2}`,
		`{"a":3,"b":2,"s":"forbidden","leaf":"abcd","mv":{"p":"xyzw","q":"a"}}`,
		`{"ml":[{"k":"a","v":-1},{"k":"b","v":1}],"nested":{"x":3}}`,
		`{"nested":{"x":1},"ls":["a"],"m":{"k":1}}`,
		`{"leaf":5,"ml":"wrong","mv":[1]}`,
		`{}`,
	}
	for _, root := range []bool{true, false} {
		eager, err := Compile(s, root)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range values {
			v, err := jsonscan.Decode([]byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			old, _ := jsonscan.Decode([]byte(`{"nested":{"x":2},"a":1}`))
			for _, oldValue := range []any{nil, old, v} {
				lazy, err := Compile(s, root, LazyCompile())
				if err != nil {
					t.Fatal(err)
				}
				vr1 := eager.Validate(context.Background(), crdschema.NewPath("d"), v, oldValue)
				wantErrs, wantLeft := vr1.Errors, vr1.Remaining
				vr2 := lazy.Validate(context.Background(), crdschema.NewPath("d"), v, oldValue)
				gotErrs, gotLeft := vr2.Errors, vr2.Remaining
				want, got := errorTexts(wantErrs), errorTexts(gotErrs)
				if wantLeft != gotLeft || !equalStrings(want, got) {
					t.Errorf("%s (old %v): lazy got %q, %d left; eager %q, %d left", raw, oldValue, got, gotLeft, want, wantLeft)
				}
				// A second validation reuses what the first compiled.
				vr3 := lazy.Validate(context.Background(), crdschema.NewPath("d"), v, oldValue)
				again, againLeft := vr3.Errors, vr3.Remaining
				if againLeft != gotLeft || !equalStrings(errorTexts(again), got) {
					t.Errorf("%s: second lazy validation differs: %q", raw, errorTexts(again))
				}
			}
		}
	}
	// The schema has errors to find at all: the comparison is not vacuous.
	c, _ := Compile(s, true, LazyCompile())
	v, _ := jsonscan.Decode([]byte(values[1]))
	if errs := c.Validate(context.Background(), nil, v, nil).Errors; len(errs) < 5 {
		t.Errorf("expected errors at several nodes, got %q", errorTexts(errs))
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLazyCompileConcurrent checks, under -race, that goroutines sharing
// a lazily compiled Compiled compile each node once and agree.
func TestLazyCompileConcurrent(t *testing.T) {
	c, err := Compile(lazySchema(), true, LazyCompile())
	if err != nil {
		t.Fatal(err)
	}
	v, _ := jsonscan.Decode([]byte(`{"a":3,"b":2,"ml":[{"k":"a","v":-1}],"leaf":"abcd","nested":{"x":3}}`))
	var wg sync.WaitGroup
	results := make([][]string, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs := c.Validate(context.Background(), nil, v, nil).Errors
			results[i] = errorTexts(errs)
		}()
	}
	wg.Wait()
	for i := range results {
		if len(results[i]) == 0 || !equalStrings(results[i], results[0]) {
			t.Errorf("goroutine %d got %q, goroutine 0 %q", i, results[i], results[0])
		}
	}
}

// TestLazyCompileStaysLazy checks that validating an object compiles the
// rules of the nodes it has values at, and not those of the others (the
// evaluation bounds need the types below a node, not their rules).
func TestLazyCompileStaysLazy(t *testing.T) {
	c, err := Compile(lazySchema(), true, LazyCompile())
	if err != nil {
		t.Fatal(err)
	}
	v, _ := jsonscan.Decode([]byte(`{"a":1,"b":2,"nested":{"x":1}}`))
	// As crd's requests validate: with the bounds that let rules run
	// untracked.
	if errs := c.Validate(context.Background(), nil, v, nil, ValidateOption(WithBoundedCost())).Errors; len(errs) == 0 {
		t.Fatal("no errors: the root's rule that does not compile should be reported")
	}
	// pending tells that a node with rules has not compiled them.
	pending := func(n *node) bool { return n != nil && n.build != nil && n.rules == nil && n.compileErr == nil }
	if pending(c.root) || pending(c.root.props["nested"]) {
		t.Error("the nodes with values were not compiled")
	}
	ml, mv := c.root.props["ml"], c.root.props["mv"]
	if ml == nil || mv == nil {
		t.Fatal("no nodes for ml and mv")
	}
	for name, n := range map[string]*node{"leaf": c.root.props["leaf"], "ml items": ml.items, "mv values": mv.additional} {
		if !pending(n) {
			t.Errorf("%s: compiled, though the object has no value there", name)
		}
	}
}
