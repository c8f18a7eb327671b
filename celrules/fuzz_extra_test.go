package celrules_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/structural"
)

// FuzzSchemaRules compiles, cost-checks and evaluates the rules of random
// schemas on random objects: no panic, schema and objects left alone, the
// budget never grows.
func FuzzSchemaRules(f *testing.F) {
	schemas := []string{
		`{"type":"object","properties":{"a":{"type":"integer"},"l":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":5}}},"x-kubernetes-validations":[{"rule":"self.a > 0 && self.l.all(x, x != 'b')","messageExpression":"'a=' + string(self.a)"}]}`,
		`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"},"x-kubernetes-validations":[{"rule":"self == oldSelf","optionalOldSelf":true}]}}}`,
		`{"type":"object","properties":{"ml":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"x-kubernetes-int-or-string":true}},"x-kubernetes-validations":[{"rule":"self.v == oldSelf.v","fieldPath":".v","reason":"FieldValueForbidden"}]}}}}`,
		`{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-validations":[{"rule":"self.metadata.name.startsWith('a')"}]}`,
		`{"type":"object","properties":{"s":{"type":"string","format":"date-time","x-kubernetes-validations":[{"rule":"timestamp(self) > timestamp('2000-01-01T00:00:00Z')"}]}}}`,
	}
	objects := []string{`{}`, `{"a":1,"l":["a","b"]}`, `{"m":{"x":"y"},"ml":[{"k":"a","v":1},{"k":"b","v":"x"}]}`,
		`{"apiVersion":"v1","kind":"K","metadata":{"name":"b"}}`, `{"s":"1999-01-01T00:00:00Z","a":9223372036854775807}`}
	for _, s := range schemas {
		for _, o := range objects {
			f.Add([]byte(s), []byte(o), []byte(objects[0]))
		}
	}
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON, oldJSON []byte) {
		var p crdschema.JSONSchemaProps
		if json.Unmarshal(schemaJSON, &p) != nil {
			return
		}
		s, err := structural.New(&p)
		if err != nil || s == nil {
			return
		}
		obj, err := jsonscan.Decode(objJSON)
		if err != nil {
			return
		}
		old, err := jsonscan.Decode(oldJSON)
		if err != nil {
			old = nil
		}
		sBefore := s.DeepCopy()
		objBefore, oldBefore := hostile.Clone(obj), hostile.Clone(old)
		if _, _, err := celrules.CheckSchema(s, crdRoot); err != nil {
			t.Fatalf("CheckSchema: %v", err)
		}
		for _, root := range []bool{false, true} {
			c, err := celrules.Compile(s, root)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			for _, o := range []any{nil, old} {
				vr1 := c.Validate(ctx, nil, obj, o)
				errs, left := vr1.Errors, vr1.Remaining
				if left > celrules.RuntimeBudget {
					t.Fatalf("the budget grew to %d", left)
				}
				for _, e := range errs {
					_ = e.Error()
				}
				// Without cost tracking where the bounds allow it: the
				// same errors, and a bound not below the cost spent.
				for _, budget := range []int64{celrules.RuntimeBudget, 40} {
					vr2 := c.Validate(ctx, nil, obj, o, celrules.WithBudget(budget))
					want, left := vr2.Errors, vr2.Remaining
					br := c.Validate(ctx, nil, obj, o, celrules.WithBudget(budget), celrules.WithBoundedCost())
					got, boundedLeft := br.Errors, br.Remaining
					if w, g := sortedText(want), sortedText(got); w != g {
						t.Fatalf("budget %d: tracked:\n%s\nbounded:\n%s", budget, w, g)
					}
					if boundedLeft > left {
						t.Fatalf("budget %d: the bounded run left %d, more than the %d the tracked run left", budget, boundedLeft, left)
					}
				}
			}
		}
		if !deepEqual(s, sBefore) || !deepEqual(obj, objBefore) || !deepEqual(old, oldBefore) {
			t.Fatal("an input was modified")
		}
	})
}

// sortedText renders errs in an order independent of map iteration.
func sortedText(errs crdschema.ErrorList) string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = selfTypeNames.ReplaceAllString(e.Error(), "selfType")
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

var selfTypeNames = regexp.MustCompile(`selfType\d+`)

// deepEqual compares with reflect.DeepEqual, falling back to the printed
// form, where NaN equals NaN.
func deepEqual(a, b any) bool {
	return reflect.DeepEqual(a, b) || fmt.Sprint(a) == fmt.Sprint(b)
}
