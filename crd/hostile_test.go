package crd_test

// Hostile inputs through the whole request pipeline and CRD validation:
// every test bounds the time (and, where it makes sense, the memory) the
// library may take, and checks that it gives a clear error or the right
// result without panicking or exhausting the stack.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/printer"
)

// The harness of the hostile-input tests (package internal/hostile).
const hostileLimit = hostile.Limit

var (
	bounded       = hostile.Run
	boundedAlloc  = hostile.RunAlloc
	skipUnderRace = hostile.SkipUnderRace
)

var ctx = context.Background()

func fixedClock() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }

func errorKeysOf(errs crdschema.ErrorList) []string {
	keys := []string{}
	for _, e := range errs {
		keys = append(keys, string(e.Type)+" "+e.Field+": "+e.Detail)
	}
	sort.Strings(keys)
	return keys
}

func unmarshalCRD(t testing.TB, y string) *crdschema.CustomResourceDefinition {
	t.Helper()
	def, unknown, err := manifest.UnmarshalCRD([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) > 0 {
		t.Fatalf("unknown fields %q", unknown)
	}
	return def
}

// hostileCRD has a field for every kind of hostile value; it is a valid CRD.
const hostileCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: widgets
    kind: Widget
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    additionalPrinterColumns:
    - name: S
      type: string
      jsonPath: .spec.s
    - name: "N" # quoted: YAML 1.1 (kubectl) reads N as false
      type: integer
      jsonPath: .spec.n
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "!has(self.any) || !has(oldSelf.any) || self.any == oldSelf.any"
              message: any is immutable
            properties:
              any:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              emb:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              s:
                type: string
                maxLength: 1000
              big:
                type: string
                x-kubernetes-validations:
                - rule: self.size() > 0
              pat:
                type: string
                pattern: '^(a+)+$'
              list:
                type: array
                maxItems: 100000
                items:
                  type: string
                  maxLength: 10
                x-kubernetes-validations:
                - rule: self.size() <= 100000
              set:
                type: array
                x-kubernetes-list-type: set
                items:
                  type: integer
              mlist:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [k]
                items:
                  type: object
                  required: [k]
                  properties:
                    k:
                      type: string
                    v:
                      type: integer
                      default: 1
              map:
                type: object
                maxProperties: 100000
                additionalProperties:
                  type: integer
                x-kubernetes-validations:
                - rule: self.size() <= 100000
              n:
                type: integer
                minimum: 0
          status:
            type: object
            x-kubernetes-preserve-unknown-fields: true
`

func newHostileResource(t testing.TB) *crd.Resource {
	t.Helper()
	def := unmarshalCRD(t, hostileCRD)
	if errs := crd.Validate(context.Background(), def); len(errs) > 0 {
		t.Fatalf("the test CRD is invalid: %v", errs)
	}
	r, err := crd.New(def, "v1",
		crd.WithClock(fixedClock),
		crd.WithUID(func() string { return "00000000-0000-0000-0000-000000000001" }),
		crd.WithNameSuffix(func() string { return "xxxxx" }))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func widget(name string, spec map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]any{"name": name, "namespace": "default"},
		"spec":       spec,
	}
}

// nestedMaps returns {"a":{"a":...{"leaf":"x"}}} with depth maps.
func nestedMaps(depth int) map[string]any {
	v := map[string]any{"leaf": "x"}
	for i := 1; i < depth; i++ {
		v = map[string]any{"a": v}
	}
	return v
}

// nestedLists returns [[...["x"]...]] with depth lists.
func nestedLists(depth int) []any {
	v := []any{"x"}
	for i := 1; i < depth; i++ {
		v = []any{v}
	}
	return v
}

// createOK creates obj and fails unless it is accepted.
func createOK(t *testing.T, r *crd.Resource, obj map[string]any) *crd.Result {
	t.Helper()
	var res *crd.Result
	var err error
	bounded(t, hostileLimit, func() { res, err = r.Create(ctx, obj) })
	if res.Object == nil {
		t.Fatalf("Create: %v", err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("Create: %v", errorKeysOf(res.Errors))
	}
	return res
}

// TestHostileDeepObject sends objects nested 10,000 deep (maps, lists, and
// in an embedded resource) through Create and Update: they are accepted
// unchanged, in bounded time, and a changed deep value is caught by the
// transition rule.
func TestHostileDeepObject(t *testing.T) {
	skipUnderRace(t)
	r := newHostileResource(t)
	const depth = 10000
	for _, tc := range []struct {
		name string
		spec func() map[string]any
	}{
		{"maps", func() map[string]any { return map[string]any{"any": nestedMaps(depth)} }},
		{"lists", func() map[string]any { return map[string]any{"any": map[string]any{"l": nestedLists(depth)}} }},
		{"embedded", func() map[string]any {
			return map[string]any{"emb": map[string]any{"apiVersion": "v1", "kind": "K", "deep": nestedMaps(depth)}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj := widget("deep", tc.spec())
			res := createOK(t, r, obj)
			if !reflect.DeepEqual(res.Object["spec"], tc.spec()) {
				t.Fatal("the deep value changed")
			}
			old := res.Object
			old["metadata"].(map[string]any)["resourceVersion"] = "7"
			upd := widget("deep", tc.spec())
			upd["metadata"].(map[string]any)["resourceVersion"] = "7"
			var ures *crd.Result
			var err error
			bounded(t, hostileLimit, func() { ures, err = r.Update(ctx, upd, old) })
			if err != nil || len(ures.Errors) > 0 {
				t.Fatalf("Update onto itself: %v %v", err, ures)
			}
			if tc.name != "maps" {
				return
			}
			// Change the innermost value: the rule compares 10,000 levels.
			changed := widget("deep", tc.spec())
			changed["metadata"].(map[string]any)["resourceVersion"] = "7"
			leaf := changed["spec"].(map[string]any)["any"].(map[string]any)
			for leaf["a"] != nil {
				leaf = leaf["a"].(map[string]any)
			}
			leaf["leaf"] = "y"
			bounded(t, hostileLimit, func() { ures, err = r.Update(ctx, changed, old) })
			if ures.Object == nil {
				t.Fatal(err)
			}
			want := []string{"FieldValueInvalid spec: any is immutable"}
			if got := errorKeysOf(ures.Errors); !reflect.DeepEqual(got, want) {
				t.Errorf("errors %q, want %q", got, want)
			}
			if g := ures.Object["metadata"].(map[string]any)["generation"]; g != int64(2) {
				t.Errorf("generation %v after a deep change, want 2", g)
			}
		})
	}
}

// TestHostileDeepUpdateGeneration: an update that changes nothing keeps
// the generation, however deep the object (the API server compares old
// and new with a semantic deep equality that has no depth limit, and its
// JSON decoder accepts 10,000 levels).
func TestHostileDeepUpdateGeneration(t *testing.T) {
	skipUnderRace(t)
	r := newHostileResource(t)
	for _, depth := range []int{1000, 4000, 6000, 10000} {
		spec := func() map[string]any { return map[string]any{"any": nestedMaps(depth)} }
		res := createOK(t, r, widget("deep", spec()))
		old := res.Object
		old["metadata"].(map[string]any)["resourceVersion"] = "7"
		upd := widget("deep", spec())
		upd["metadata"].(map[string]any)["resourceVersion"] = "7"
		var ures *crd.Result
		var err error
		bounded(t, hostileLimit, func() { ures, err = r.Update(ctx, upd, old) })
		if err != nil || len(ures.Errors) > 0 {
			t.Fatalf("Update onto itself: %v %v", err, ures)
		}
		if g := ures.Object["metadata"].(map[string]any)["generation"]; g != int64(1) {
			t.Errorf("depth %d: generation %v after an update that changes nothing, want 1", depth, g)
		}
	}
}

// TestHostileDeepJSON decodes request bodies nested around the JSON
// decoder's limit of 10,000 levels: within it the object is created, beyond
// it decoding fails with a clear error.
func TestHostileDeepJSON(t *testing.T) {
	skipUnderRace(t)
	r := newHostileResource(t)
	body := func(depth int) []byte {
		// The body and spec are two levels.
		inner := strings.Repeat(`{"a":`, depth-2) + `1` + strings.Repeat(`}`, depth-2)
		return []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"j"},"spec":{"any":` + inner + `}}`)
	}
	var obj map[string]any
	var err error
	bounded(t, hostileLimit, func() { obj, err = manifest.UnmarshalObject(body(10000)) })
	if err != nil {
		t.Fatalf("10,000 levels: %v", err)
	}
	createOK(t, r, obj)
	bounded(t, hostileLimit, func() { obj, err = manifest.UnmarshalObject(body(10001)) })
	if err == nil || !strings.Contains(err.Error(), "depth") {
		t.Errorf("10,001 levels: err = %v, want an error about the depth", err)
	}
	bounded(t, hostileLimit, func() { _, err = manifest.UnmarshalObject(body(1000000)) })
	if err == nil {
		t.Error("1,000,000 levels: no error")
	}
}

// TestHostileBigString sends strings of 700 kB (two of them are what the
// API server stores at most): accepted where the schema does not bound
// them, a single Too long error where it does, a pattern mismatch where a
// backtracking engine would take forever; a 10 MB string is refused as too
// large a request.
func TestHostileBigString(t *testing.T) {
	skipUnderRace(t)
	r := newHostileResource(t)
	big := strings.Repeat("a", 700<<10)
	boundedAlloc(t, 64<<20, func() { createOK(t, r, widget("big", map[string]any{"big": big, "pat": big})) })

	var res *crd.Result
	var err error
	boundedAlloc(t, 64<<20, func() { res, err = r.Create(ctx, widget("big", map[string]any{"s": big, "pat": big + "!"})) })
	if res.Object == nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("a", 10<<20)
	var herr error
	boundedAlloc(t, 64<<20, func() { _, herr = r.Create(ctx, widget("big", map[string]any{"big": huge})) })
	if re := (*crd.RequestError)(nil); !errors.As(herr, &re) || re.Reason != crd.StatusReasonRequestEntityTooLarge {
		t.Errorf("10 MB string: %v, want a RequestEntityTooLarge refusal", herr)
	}
	want := []string{
		"FieldValueInvalid <nil>: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
		"FieldValueInvalid spec.pat: spec.pat in body should match '^(a+)+$'",
		"FieldValueTooLong spec.s: may not be more than 1000 bytes",
	}
	if got := errorKeysOf(res.Errors); !reflect.DeepEqual(got, want) {
		t.Errorf("errors %q, want %q", got, want)
	}
	for _, e := range res.Errors {
		if e.Type == crdschema.ErrorTypeTooLong && len(e.Error()) > 100 {
			t.Errorf("a Too long error prints the value: %d bytes", len(e.Error()))
		}
	}
	// In a printer column.
	p, err := printer.New([]crdschema.CustomResourceColumnDefinition{{Name: "S", Type: "string", JSONPath: ".spec.big"}})
	if err != nil {
		t.Fatal(err)
	}
	var row []any
	bounded(t, hostileLimit, func() { row = p.Row(widget("big", map[string]any{"big": big})) })
	if len(row) != 2 || row[1] != big {
		t.Errorf("the printer did not print the big string")
	}
}

// TestHostileBigCollections sends a list, a set, a map list and a map of
// 50,000 entries each (the largest the API server stores: 100,000 map-list
// items are over its 1.5 MiB).
func TestHostileBigCollections(t *testing.T) {
	skipUnderRace(t)
	r := newHostileResource(t)
	const n = 50000
	list := make([]any, n)
	set := make([]any, n)
	mlist := make([]any, n)
	m := make(map[string]any, n)
	for i := range n {
		list[i] = fmt.Sprint(i)
		set[i] = int64(i)
		mlist[i] = map[string]any{"k": fmt.Sprint(i)}
		m[fmt.Sprint("k", i)] = int64(i)
	}
	for _, tc := range []struct {
		name string
		spec map[string]any
	}{
		{"list", map[string]any{"list": list}},
		{"set", map[string]any{"set": set}},
		{"map list", map[string]any{"mlist": mlist}},
		{"map", map[string]any{"map": m}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res *crd.Result
			boundedAlloc(t, 256<<20, func() { res = createOK(t, r, widget("big", tc.spec)) })
			if tc.name == "map list" {
				// Every item got its default.
				items := res.Object["spec"].(map[string]any)["mlist"].([]any)
				if len(items) != n || items[n-1].(map[string]any)["v"] != int64(1) {
					t.Error("map list items not defaulted")
				}
			}
		})
	}

	// One bad entry at the end of each.
	badList := append(append([]any(nil), list[:n-1]...), "longer than ten")
	badSet := append(append([]any(nil), set[:n-1]...), int64(0))
	badMList := append(append([]any(nil), mlist[:n-1]...), map[string]any{"k": "0"})
	badMap := make(map[string]any, n)
	for k, v := range m {
		badMap[k] = v
	}
	badMap["k49999"] = "x"
	var res *crd.Result
	var err error
	bounded(t, hostileLimit, func() {
		res, err = r.Create(ctx, widget("bad", map[string]any{"list": badList, "set": badSet, "mlist": badMList, "map": badMap}))
	})
	if res.Object == nil {
		t.Fatal(err)
	}
	want := []string{
		`FieldValueDuplicate spec.mlist[49999]: `,
		`FieldValueDuplicate spec.set[49999]: `,
		`FieldValueInvalid <nil>: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
		`FieldValueTooLong spec.list[49999]: may not be more than 10 bytes`,
		`FieldValueTypeInvalid spec.map.k49999: spec.map.k49999 in body must be of type integer: "string"`,
	}
	if got := errorKeysOf(res.Errors); !reflect.DeepEqual(got, want) {
		t.Errorf("errors\n%q\nwant\n%q", got, want)
	}
}

// celBudgetCRD has rules that exhaust the per-call cost limit and the
// per-object budget.
const celBudgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: budgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: budgets
    kind: Budget
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              quadratic:
                type: array
                items:
                  type: integer
                x-kubernetes-validations:
                - rule: self.all(x, self.all(y, x >= 0))
              strs:
                type: array
                items:
                  type: string
                  x-kubernetes-validations:
                  - rule: self.matches('^a*$')
`

// TestHostileCELBudget: a rule over the per-call cost limit, and rules
// that together exceed the per-object budget, are stopped with the API
// server's messages.
func TestHostileCELBudget(t *testing.T) {
	skipUnderRace(t)
	def := unmarshalCRD(t, celBudgetCRD)
	r, err := crd.New(def, "v1", crd.WithoutValidation()) // its estimated costs are over the limits
	if err != nil {
		t.Fatal(err)
	}
	mb := strings.Repeat("a", 1<<20)
	obj := func(field string, n int) map[string]any {
		l := make([]any, n)
		for i := range l {
			l[i] = int64(i)
			if field == "strs" {
				l[i] = mb
			}
		}
		return map[string]any{"apiVersion": "example.com/v1", "kind": "Budget", "metadata": map[string]any{"name": "b"},
			"spec": map[string]any{field: l}}
	}
	for _, tc := range []struct {
		name  string
		obj   map[string]any
		want  []string
		limit time.Duration
	}{
		{"per-call limit", obj("quadratic", 2000), []string{
			"FieldValueInvalid spec.quadratic: 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, x >= 0))",
		}, hostileLimit},
		// The API server refuses the body before any rule runs: the
		// per-object budget is out of reach of 1 MB strings.
		{"per-object budget", obj("strs", 200), []string{
			"refused: Request entity too large: limit is 3145728",
		}, hostileLimit},
		{"within limits", obj("quadratic", 100), []string{}, hostileLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res *crd.Result
			var err error
			bounded(t, tc.limit, func() { res, err = r.Create(ctx, tc.obj) })
			got := errorKeysOf(res.Errors)
			if res.Object == nil {
				got = []string{"refused: " + err.Error()}
			}
			if len(got) == 1 {
				// The item where the budget runs out depends on the cost of each.
				got[0] = indexRE.ReplaceAllString(got[0], "[*]")
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

var indexRE = regexp.MustCompile(`\[[0-9]+\]`)

// numbersCRD has integer and number fields with bounds, formats, CEL rules
// and printer columns.
const numbersCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: numbers.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: numbers
    kind: Number
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: I, type: integer, jsonPath: .spec.i}
    - {name: F, type: number, jsonPath: .spec.f}
    - {name: FI, type: integer, jsonPath: .spec.f}
    - {name: S, type: string, jsonPath: .spec.i}
    - {name: SF, type: string, jsonPath: .spec.f}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              i: {type: integer}
              imax: {type: integer, maximum: 9223372036854775807}
              imin: {type: integer, minimum: -9223372036854775808}
              imul: {type: integer, multipleOf: 3}
              i64: {type: integer, format: int64}
              i32: {type: integer, format: int32}
              f: {type: number}
              fmul: {type: number, multipleOf: 0.5}
              fmax: {type: number, maximum: 1e308, exclusiveMaximum: true}
              fmin: {type: number, minimum: 5e-324}
              cel:
                type: integer
                x-kubernetes-validations:
                - rule: self + 1 > self
                - rule: self - 1 < self
                - rule: self * 2 != 0
                - rule: -self != 0
              celf:
                type: number
                x-kubernetes-validations:
                - rule: self * 10.0 > self
                - rule: int(self) != 0
                - rule: self / 2.0 != 0.0
`

// TestHostileNumbers sends numbers at the edges of int64 and float64
// through decoding, schema validation, CEL and the printer. The expected
// errors and cells are the API server's (conformance case
// pipeline/hostile-number-edges).
func TestHostileNumbers(t *testing.T) {
	skipUnderRace(t)
	def := unmarshalCRD(t, numbersCRD)
	if errs := crd.Validate(context.Background(), def); len(errs) > 0 {
		t.Fatal(errs)
	}
	r, err := crd.New(def, "v1")
	if err != nil {
		t.Fatal(err)
	}
	p, err := printer.New(def.Spec.Versions[0].AdditionalPrinterColumns)
	if err != nil {
		t.Fatal(err)
	}
	const minInt64 = -9223372036854775808
	for _, tc := range []struct {
		name  string
		spec  string
		want  []string
		cells []any
		// values after decoding
		values map[string]any
	}{
		{
			name: "max",
			spec: `{"i":9223372036854775807,"imax":9223372036854775807,"imin":9223372036854775807,"imul":9223372036854775807,"i64":9223372036854775807,"i32":9223372036854775807,"f":1e308,"fmul":1e308,"fmax":1e308,"fmin":1e308,"cel":9223372036854775807,"celf":1e308}`,
			want: []string{
				"FieldValueInvalid <nil>: Checked value must be of type integer with format int32 in spec.i32",
				"FieldValueInvalid <nil>: Maximum boundary value must be of type integer (default format) in spec.imax",
				"FieldValueInvalid <nil>: Minimum boundary value must be of type integer (default format) in spec.imin",
				"FieldValueInvalid spec.cel: integer overflow evaluating rule: self * 2 != 0",
				"FieldValueInvalid spec.cel: integer overflow evaluating rule: self + 1 > self",
				"FieldValueInvalid spec.celf: integer overflow evaluating rule: int(self) != 0",
				"FieldValueInvalid spec.fmax: spec.fmax in body should be less than 1e+308",
				"FieldValueInvalid spec.fmul: spec.fmul in body should be a multiple of 0.5",
				"FieldValueInvalid spec.imul: spec.imul in body should be a multiple of 3",
			},
			cells:  []any{"max", int64(9223372036854775807), 1e308, int64(minInt64), "9223372036854775807", "1e+308"},
			values: map[string]any{"i": int64(9223372036854775807), "f": 1e308},
		},
		{
			name: "min",
			spec: `{"i":-9223372036854775808,"imax":-9223372036854775808,"imin":-9223372036854775808,"imul":-9223372036854775808,"i64":-9223372036854775808,"i32":-9223372036854775808,"f":5e-324,"fmul":5e-324,"fmax":5e-324,"fmin":5e-324,"cel":-9223372036854775808,"celf":5e-324}`,
			want: []string{
				"FieldValueInvalid <nil>: Checked value must be of type integer with format int32 in spec.i32",
				"FieldValueInvalid <nil>: Maximum boundary value must be of type integer (default format) in spec.imax",
				"FieldValueInvalid <nil>: Minimum boundary value must be of type integer (default format) in spec.imin",
				"FieldValueInvalid spec.cel: integer overflow evaluating rule: -self != 0",
				"FieldValueInvalid spec.cel: integer overflow evaluating rule: self * 2 != 0",
				"FieldValueInvalid spec.cel: integer overflow evaluating rule: self - 1 < self",
				"FieldValueInvalid spec.celf: failed rule: int(self) != 0",
				"FieldValueInvalid spec.celf: failed rule: self / 2.0 != 0.0",
				"FieldValueInvalid spec.fmul: spec.fmul in body should be a multiple of 0.5",
				"FieldValueInvalid spec.imul: spec.imul in body should be a multiple of 3",
			},
			cells:  []any{"min", int64(minInt64), 5e-324, int64(0), "-9223372036854775808", "5e-324"},
			values: map[string]any{"i": int64(minInt64), "f": 5e-324},
		},
		{
			name: "two-to-the-64",
			spec: `{"i":18446744073709551616,"imax":18446744073709551616,"imul":18446744073709551616,"f":18446744073709551616,"fmul":18446744073709551616,"fmax":18446744073709551616,"cel":18446744073709551616,"celf":18446744073709551616}`,
			want: []string{
				"FieldValueInvalid <nil>: Checked value must be of type integer (default format) in spec.cel",
				"FieldValueInvalid <nil>: Checked value must be of type integer (default format) in spec.i",
				"FieldValueInvalid <nil>: Checked value must be of type integer (default format) in spec.imax",
				"FieldValueInvalid <nil>: Checked value must be of type integer (default format) in spec.imul",
				"FieldValueInvalid <nil>: Maximum boundary value must be of type integer (default format) in spec.imax",
				"FieldValueInvalid <nil>: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
				"FieldValueInvalid spec.fmul: spec.fmul in body should be a multiple of 0.5",
				"FieldValueInvalid spec.imax: spec.imax in body should be less than or equal to 9.223372036854776e+18",
				"FieldValueInvalid spec.imul: spec.imul in body should be a multiple of 3",
				"FieldValueTypeInvalid spec.cel: spec.cel in body must be of type integer: \"number\"",
				"FieldValueTypeInvalid spec.i: spec.i in body must be of type integer: \"number\"",
				"FieldValueTypeInvalid spec.imax: spec.imax in body must be of type integer: \"number\"",
				"FieldValueTypeInvalid spec.imul: spec.imul in body must be of type integer: \"number\"",
			},
			cells:  []any{"two-to-the-64", int64(minInt64), 18446744073709551616.0, int64(minInt64), "1.8446744073709552e+19", "1.8446744073709552e+19"},
			values: map[string]any{"i": 18446744073709551616.0, "f": 18446744073709551616.0},
		},
		{
			name: "negative",
			spec: `{"f":-1e308,"fmul":-1e308,"fmin":-5e-324,"celf":-1e308,"imul":-9223372036854775807}`,
			want: []string{
				"FieldValueInvalid spec.celf: failed rule: self * 10.0 > self",
				"FieldValueInvalid spec.celf: integer overflow evaluating rule: int(self) != 0",
				"FieldValueInvalid spec.fmin: spec.fmin in body should be greater than or equal to 5e-324",
				"FieldValueInvalid spec.fmul: spec.fmul in body should be a multiple of 0.5",
				"FieldValueInvalid spec.imul: spec.imul in body should be a multiple of 3",
			},
			cells:  []any{"negative", nil, -1e308, int64(minInt64), nil, "-1e+308"},
			values: map[string]any{"f": -1e308},
		},
		{
			name: "float-ints",
			spec: `{"i":9007199254740993.0,"imax":9.223372036854775807e18,"i32":2147483648,"fmul":4503599627370497.5,"celf":9.3e18,"cel":1.0}`,
			want: []string{
				"FieldValueInvalid <nil>: Checked value must be of type integer (default format) in spec.imax",
				"FieldValueInvalid <nil>: Checked value must be of type integer with format int32 in spec.i32",
				"FieldValueInvalid <nil>: Maximum boundary value must be of type integer (default format) in spec.imax",
				"FieldValueInvalid <nil>: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
				"FieldValueInvalid spec.fmul: spec.fmul in body should be a multiple of 0.5",
				"FieldValueTypeInvalid spec.i: spec.i in body must be of type integer: \"number\"",
				"FieldValueTypeInvalid spec.imax: spec.imax in body must be of type integer: \"number\"",
			},
			cells:  []any{"float-ints", int64(9007199254740992), nil, nil, "9.007199254740992e+15", nil},
			values: map[string]any{"i": 9007199254740992.0, "i32": int64(2147483648)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj, err := manifest.UnmarshalObject([]byte(`{"apiVersion":"example.com/v1","kind":"Number","metadata":{"name":"` + tc.name + `"},"spec":` + tc.spec + `}`))
			if err != nil {
				t.Fatal(err)
			}
			var res *crd.Result
			bounded(t, hostileLimit, func() { res, err = r.Create(ctx, obj) })
			if res.Object == nil {
				t.Fatal(err)
			}
			if got := errorKeysOf(res.Errors); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			spec := res.Object["spec"].(map[string]any)
			for k, v := range tc.values {
				if spec[k] != v {
					t.Errorf("spec.%s = %#v, want %#v", k, spec[k], v)
				}
			}
			var row []any
			bounded(t, hostileLimit, func() { row = p.Row(res.Object) })
			if !reflect.DeepEqual(row, tc.cells) {
				t.Errorf("row %#v, want %#v", row, tc.cells)
			}
			for _, e := range res.Errors {
				_ = e.Error()
			}
		})
	}
	// Beyond float64: a clear decoding error.
	if _, err := manifest.UnmarshalObject([]byte(`{"spec":{"f":1e400}}`)); err == nil {
		t.Error("1e400 decoded without error")
	}
}

// TestHostileInvalidUTF8 sends invalid UTF-8 in keys and values: Create
// gives a result (the same every time) and never panics.
func TestHostileInvalidUTF8(t *testing.T) {
	skipUnderRace(t)
	r := newHostileResource(t)
	bad := "a\xff\xfeb"
	objs := []map[string]any{
		widget("utf8", map[string]any{"s": bad, "pat": bad, "big": bad, "list": []any{bad}, "map": map[string]any{bad: int64(1)}}),
		widget("utf8", map[string]any{"any": map[string]any{bad: bad}, bad: bad}),
		widget("utf8", map[string]any{"mlist": []any{map[string]any{"k": bad}, map[string]any{"k": bad}}}),
		{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": bad, "labels": map[string]any{bad: bad}, "annotations": map[string]any{bad: bad}}},
		{"apiVersion": "example.com/v1" + bad, "kind": "Widget", "metadata": map[string]any{"name": "x"}},
		{"apiVersion": "example.com/v1", "kind": bad, "metadata": map[string]any{"name": "x"}},
	}
	for i, obj := range objs {
		var first, second string
		for _, out := range []*string{&first, &second} {
			bounded(t, hostileLimit, func() {
				res, err := r.Create(ctx, obj)
				if res.Object == nil {
					*out = "error: " + err.Error()
					return
				}
				delete(res.Object["metadata"].(map[string]any), "resourceVersion") // one per create
				b, _ := json.Marshal(res.Object)
				*out = strings.Join(errorKeysOf(res.Errors), "\n") + "\n" + string(b) + fmt.Sprint(res.UnknownFields)
			})
		}
		if first != second {
			t.Errorf("object %d: results differ:\n%s\n%s", i, first, second)
		}
	}
	// A wrong string is still a string: the pattern and the list rule
	// judge it, the unknown field is pruned.
	res, err := r.Create(ctx, objs[1])
	if res.Object == nil {
		t.Fatal(err)
	}
	if len(res.UnknownFields) != 1 || res.UnknownFields[0] != "spec."+bad {
		t.Errorf("unknown fields %q", res.UnknownFields)
	}
}

// schemaNest returns a schema nested depth levels deep through properties.
func schemaNest(depth int) string {
	var b strings.Builder
	for range depth - 1 {
		b.WriteString(`{"type":"object","properties":{"a":`)
	}
	b.WriteString(`{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 10"}]}`)
	b.WriteString(strings.Repeat("}}", depth-1))
	return b.String()
}

// TestHostileDeepSchema validates and serves a CRD whose schema is nested
// 1,000 deep, and creates an object that goes all the way down.
func TestHostileDeepSchema(t *testing.T) {
	skipUnderRace(t)
	const depth = 1000
	y := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"deeps.example.com"},
"spec":{"group":"example.com","scope":"Cluster","names":{"plural":"deeps","kind":"Deep"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":` + schemaNest(depth) + `}}}}]}}`
	def := unmarshalCRD(t, y)
	var errs crdschema.ErrorList
	bounded(t, hostileLimit, func() { errs = crd.Validate(context.Background(), def) })
	if len(errs) > 0 {
		t.Fatalf("Validate: %v", errs)
	}
	bounded(t, hostileLimit, func() { errs = crd.ValidateUpdate(context.Background(), def, def) })
	if len(errs) > 0 {
		t.Fatalf("ValidateUpdate: %v", errs)
	}
	var r *crd.Resource
	var err error
	bounded(t, hostileLimit, func() { r, err = crd.New(def, "v1") })
	if err != nil {
		t.Fatal(err)
	}
	spec := any("a string that is too long")
	for range depth - 1 {
		spec = map[string]any{"a": spec, "unknown": true}
	}
	obj := map[string]any{"apiVersion": "example.com/v1", "kind": "Deep", "metadata": map[string]any{"name": "d"}, "spec": spec}
	var res *crd.Result
	bounded(t, hostileLimit, func() { res, err = r.Create(ctx, obj) })
	if res.Object == nil {
		t.Fatal(err)
	}
	if len(res.UnknownFields) != depth-1 {
		t.Errorf("%d unknown fields, want %d", len(res.UnknownFields), depth-1)
	}
	if len(res.Errors) != 1 || res.Errors[0].Detail != "failed rule: self.size() < 10" ||
		!strings.HasPrefix(res.Errors[0].Field, "spec.a.a.a.") || strings.Count(res.Errors[0].Field, ".a") != depth-1 {
		t.Errorf("errors %v", res.Errors)
	}
	bounded(t, hostileLimit, func() { _, err = crd.RuleCosts(def, nil, "v1") })
	if err != nil {
		t.Error(err)
	}
}

// TestHostileThousandsOfRules: 3,000 rules on one node, each within the
// per-expression limit, are over the limit of the whole schema. The
// expected error is the API server's (conformance case
// crd/hostile-thousands-of-rules).
func TestHostileThousandsOfRules(t *testing.T) {
	skipUnderRace(t)
	var b strings.Builder
	b.WriteString(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"manyrules.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"manyrules","kind":"ManyRules"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":
{"type":"object","properties":{"l":{"type":"array","maxItems":10000,"items":{"type":"string","maxLength":10}}},"x-kubernetes-validations":[`)
	for i := 1; i <= 3000; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"rule":"self.l.all(x, x.size() < %d)"}`, i)
	}
	b.WriteString(`]}}}}}]}}`)
	def := unmarshalCRD(t, b.String())
	var errs crdschema.ErrorList
	bounded(t, 60*time.Second, func() { errs = crd.Validate(context.Background(), def) })
	if got := errorKeysOf(errs); !reflect.DeepEqual(got, wantThousandsOfRules) {
		t.Errorf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantThousandsOfRules, "\n"))
	}
	var costs int
	bounded(t, 60*time.Second, func() {
		c, err := crd.RuleCosts(def, nil, "v1")
		if err != nil {
			t.Error(err)
		}
		costs = len(c)
	})
	if costs != 3000 {
		t.Errorf("%d costs, want 3000", costs)
	}
}

var wantThousandsOfRules = []string{
	"FieldValueForbidden spec.validation.openAPIV3Schema: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.8x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
}

// TestHostileMetadataNumbers: int64 metadata fields (generation,
// deletionGracePeriodSeconds) at and beyond the edges of int64, at the
// root (reset or refused) and in an embedded resource (kept and
// validated). Expected results are the API server's.
func TestHostileMetadataNumbers(t *testing.T) {
	skipUnderRace(t)
	def := unmarshalCRD(t, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"ms.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"ms","kind":"M"},"versions":[{"name":"v1","served":true,"storage":true,
"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}}}}]}}`)
	r, err := crd.New(def, "v1")
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"generation", "deletionGracePeriodSeconds"} {
		for _, tc := range []struct {
			number  string
			refused bool
			want    []string
		}{
			{"9223372036854775807", false, []string{}},
			{"-9223372036854775808", false, nil},
			{"18446744073709551616", true, nil},
			{"1e308", true, nil},
			{"1.5", true, nil},
			{"5e-324", true, nil},
		} {
			body := fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"M","metadata":{"name":"a","%s":%s},"spec":{"e":{"apiVersion":"v1","kind":"K","metadata":{"name":"b","%s":%s}}}}`,
				field, tc.number, field, tc.number)
			obj, err := manifest.UnmarshalObject([]byte(body))
			if err != nil {
				t.Fatal(err)
			}
			var res *crd.Result
			bounded(t, hostileLimit, func() { res, err = r.Create(ctx, obj) })
			if tc.refused {
				if res.Object != nil {
					t.Errorf("%s %s: accepted, want refused", field, tc.number)
				} else if want := "cannot be handled as a M: "; !strings.Contains(err.Error(), want) {
					t.Errorf("%s %s: error %q, want one containing %q", field, tc.number, err, want)
				}
				continue
			}
			if res.Object == nil {
				t.Errorf("%s %s: %v", field, tc.number, err)
				continue
			}
			want := tc.want
			if want == nil {
				want = []string{}
				if field == "generation" {
					want = []string{"FieldValueInvalid spec.e.metadata.generation: must be greater than or equal to 0"}
				}
			}
			if got := errorKeysOf(res.Errors); !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: errors %q, want %q", field, tc.number, got, want)
			}
			emb := res.Object["spec"].(map[string]any)["e"].(map[string]any)["metadata"].(map[string]any)
			if fmt.Sprint(emb[field]) != tc.number {
				t.Errorf("%s %s: embedded value %v", field, tc.number, emb[field])
			}
			if g := res.Object["metadata"].(map[string]any)["generation"]; g != int64(1) {
				t.Errorf("%s %s: generation %v, want 1", field, tc.number, g)
			}
		}
	}
}
