package crd_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/structural"
)

// costCRD has rules over a list of strings whose cost grows with the list:
// maxItems, when set, bounds the list.
func costCRD(t *testing.T, maxItems string, rules int) (*crdschema.CustomResourceDefinition, *crd.Resource) {
	t.Helper()
	var rs []string
	for i := range rules {
		rs = append(rs, fmt.Sprintf(`{"rule":"self.all(x, x.matches('^(a|b)*c$') || x.size() == %d)"}`, i))
	}
	items := ""
	if maxItems != "" {
		items = `"maxItems":` + maxItems + `,`
	}
	def, _, err := manifest.UnmarshalCRD([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"foos.x.example.com"},
"spec":{"group":"x.example.com","scope":"Namespaced","names":{"plural":"foos","singular":"foo","kind":"Foo","listKind":"FooList"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{
"l":{"type":"array",` + items + `"items":{"type":"string","maxLength":1000},"x-kubernetes-validations":[` + strings.Join(rs, ",") + `]}}}}}}}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := crd.New(def, "v1", crd.WithUID(func() string { return "u" }), crd.WithoutValidation()) // some estimates are over the limits
	if err != nil {
		t.Fatal(err)
	}
	return def, r
}

func foo(n int, item string) map[string]any {
	l := make([]any, n)
	for i := range l {
		l[i] = item
	}
	return map[string]any{"apiVersion": "x.example.com/v1", "kind": "Foo", "metadata": map[string]any{"name": "a"}, "spec": map[string]any{"l": l}}
}

// TestCreateCostLimits: where the rules could reach the budget or the
// per-call limit, Create evaluates them with cost tracking and reports
// the API server's errors (the first case is the conformance case
// pipeline/probe-cel-runtime-budget2); where they cannot, without, and
// the errors are those of a tracked evaluation all the same.
func TestCreateCostLimits(t *testing.T) {
	match := strings.Repeat("ab", 499) + "c" // 999 characters that match
	tests := []struct {
		name     string
		maxItems string
		rules    int
		obj      map[string]any
		want     []string
	}{{
		name: "the budget runs out", maxItems: "1000", rules: 82, obj: foo(1000, match),
		want: []string{`spec.l: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run`},
	}, {
		name: "one evaluation beyond the per-call limit", rules: 1, obj: foo(4000, match),
		want: []string{`spec.l: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, x.matches('^(a|b)*c$') || x.size() == 0)`},
	}, {
		name: "within every limit", maxItems: "1000", rules: 3, obj: foo(3, "abd"),
		want: []string{
			`spec.l: Invalid value: failed rule: self.all(x, x.matches('^(a|b)*c$') || x.size() == 0)`,
			`spec.l: Invalid value: failed rule: self.all(x, x.matches('^(a|b)*c$') || x.size() == 1)`,
			`spec.l: Invalid value: failed rule: self.all(x, x.matches('^(a|b)*c$') || x.size() == 2)`,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def, r := costCRD(t, tt.maxItems, tt.rules)
			res, err := r.Create(context.Background(), tt.obj)
			if res.Object == nil {
				// A body over the API server's request size (4 MB of
				// strings) is refused before any rule runs; celrules
				// alone evaluates the rules on it below.
				var re *crd.RequestError
				if !errors.As(err, &re) || re.Reason != crd.StatusReasonRequestEntityTooLarge {
					t.Fatal(err)
				}
			} else {
				var got []string
				for _, e := range res.Errors {
					got = append(got, e.Error())
				}
				if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
					t.Errorf("errors:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
				}
			}
			// The same rules evaluated by celrules.Validate, which always
			// tracks the cost, give the same errors (the body's rules see
			// what Create's do: nothing is pruned or defaulted).
			props, _ := crd.VersionSchema(def, "v1")
			s, err := structural.New(props)
			if err != nil {
				t.Fatal(err)
			}
			c, err := celrules.Compile(s, true)
			if err != nil {
				t.Fatal(err)
			}
			tracked := c.Validate(context.Background(), nil, tt.obj, nil).Errors
			var trackedText []string
			for _, e := range tracked {
				trackedText = append(trackedText, e.Error())
			}
			if strings.Join(trackedText, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("celrules.Validate's errors:\n%s\nwant\n%s", strings.Join(trackedText, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
