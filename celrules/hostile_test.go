package celrules_test

// Hostile schemas, objects and rules for CEL compilation, static cost
// checks and evaluation: bounded time and memory, the API server's errors,
// no panics, inputs left alone; and one Compiled shared by many goroutines.

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/structural"
)

// The harness of the hostile-input tests (package internal/hostile).
const hostileLimit = hostile.Limit

var (
	bounded       = hostile.Run
	boundedAlloc  = hostile.RunAlloc
	skipUnderRace = hostile.SkipUnderRace
)

var ctx = context.Background()

var crdRoot = crdschema.NewPath("spec", "validation", "openAPIV3Schema")

func schemaOf(t testing.TB, j string) *structural.Schema {
	t.Helper()
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(j), &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func keys(errs crdschema.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, string(e.Type)+" "+e.Field+": "+e.Detail)
	}
	sort.Strings(out)
	return out
}

// validate compiles s and evaluates it on obj (and old), checking that
// neither is modified and that the budget only shrinks.
func validate(t *testing.T, s *structural.Schema, obj, old any) (crdschema.ErrorList, int64) {
	t.Helper()
	objBefore, oldBefore, sBefore := hostile.Clone(obj), hostile.Clone(old), s.DeepCopy()
	var errs crdschema.ErrorList
	var left int64
	bounded(t, hostileLimit, func() {
		c, err := celrules.Compile(s, false)
		if err != nil {
			t.Error(err)
			return
		}
		vr1 := c.Validate(ctx, nil, obj, old)
		errs, left = vr1.Errors, vr1.Remaining
	})
	if left > celrules.RuntimeBudget {
		t.Errorf("the budget grew to %d", left)
	}
	if !reflect.DeepEqual(obj, objBefore) || !reflect.DeepEqual(old, oldBefore) {
		t.Error("the object was modified")
	}
	if !reflect.DeepEqual(s, sBefore) {
		t.Error("the schema was modified")
	}
	return errs, left
}

func nestedMaps(depth int) map[string]any {
	v := map[string]any{"leaf": "x"}
	for i := 1; i < depth; i++ {
		v = map[string]any{"a": v}
	}
	return v
}

// TestHostileDeepObject compares values nested 10,000 deep (transition
// rules, equality, has() chains) below preserve-unknown-fields.
func TestHostileDeepObject(t *testing.T) {
	skipUnderRace(t)
	s := schemaOf(t, `{"type":"object","properties":{"any":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},
		"x-kubernetes-validations":[
			{"rule":"self.any == oldSelf.any","message":"immutable"},
			{"rule":"self == oldSelf","message":"all immutable"},
			{"rule":"has(self.any)"}]}`)
	const depth = 10000
	obj := map[string]any{"any": nestedMaps(depth)}
	if errs, _ := validate(t, s, obj, map[string]any{"any": nestedMaps(depth)}); len(errs) > 0 {
		t.Errorf("unchanged: %v", errs)
	}
	changed := map[string]any{"any": nestedMaps(depth - 1)}
	errs, _ := validate(t, s, obj, changed)
	if got, want := keys(errs), []string{"FieldValueInvalid <nil>: all immutable", "FieldValueInvalid <nil>: immutable"}; !reflect.DeepEqual(got, want) {
		t.Errorf("changed: %q, want %q", got, want)
	}
}

// TestHostileDeepSchema compiles, checks and runs a schema nested 1,000
// deep with a rule at every level.
func TestHostileDeepSchema(t *testing.T) {
	skipUnderRace(t)
	const depth = 1000
	j := `{"type":"string","maxLength":5,"x-kubernetes-validations":[{"rule":"self != 'bad'"}]}`
	for range depth {
		j = `{"type":"object","properties":{"a":` + j + `},"x-kubernetes-validations":[{"rule":"has(self.a)","message":"a is required"}]}`
	}
	s := schemaOf(t, j)
	var errs crdschema.ErrorList
	var costs []celrules.Cost
	bounded(t, hostileLimit, func() {
		var err error
		errs, costs, err = celrules.CheckSchema(s, crdRoot)
		if err != nil {
			t.Error(err)
		}
	})
	if len(errs) > 0 || len(costs) != depth+1 {
		t.Errorf("CheckSchema: %d costs, errors %.300v", len(costs), errs)
	}
	var obj any = "bad"
	for range depth {
		obj = map[string]any{"a": obj}
	}
	errs, _ = validate(t, s, obj, nil)
	if len(errs) != 1 || errs[0].Detail != "failed rule: self != 'bad'" || strings.Count(errs[0].Field, "a") != depth {
		t.Errorf("errors %.300v", errs)
	}
	// Cut off halfway: the rule above the cut fails.
	var half any = map[string]any{}
	for range depth / 2 {
		half = map[string]any{"a": half}
	}
	errs, _ = validate(t, s, half, nil)
	if len(errs) != 1 || errs[0].Detail != "a is required" || strings.Count(errs[0].Field, "a") != depth/2 {
		t.Errorf("errors %.300v", errs)
	}
}

// TestHostileThousandsOfRules: 3,000 rules on one node compile once, are
// over the cost limit of the whole schema together, and all run. The
// expected error is the API server's (conformance case
// crd/hostile-thousands-of-rules).
func TestHostileThousandsOfRules(t *testing.T) {
	skipUnderRace(t)
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"spec":{"type":"object","properties":{"l":{"type":"array","maxItems":10000,"items":{"type":"string","maxLength":10}}},"x-kubernetes-validations":[`)
	for i := 1; i <= 3000; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"rule":"self.l.all(x, x.size() < %d)"}`, i)
	}
	b.WriteString(`]}}}`)
	s := schemaOf(t, b.String())
	var errs crdschema.ErrorList
	var costs []celrules.Cost
	bounded(t, hostileLimit, func() { errs, costs, _ = celrules.CheckSchema(s, crdRoot) })
	want := []string{"FieldValueForbidden spec.validation.openAPIV3Schema: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.8x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"}
	if got := keys(errs); !reflect.DeepEqual(got, want) {
		t.Errorf("CheckSchema:\n%q\nwant\n%q", got, want)
	}
	if len(costs) != 3000 || costs[0].Cost != 60003 || costs[2999].Field != "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[2999].rule" {
		t.Errorf("%d costs, first %+v", len(costs), costs[0])
	}
	// Every rule runs: the items of length 5 fail rules 1 to 5.
	obj := map[string]any{"spec": map[string]any{"l": []any{"abcde", "x"}}}
	verrs, _ := validate(t, s, obj, nil)
	if len(verrs) != 5 || verrs[4].Detail != "failed rule: self.l.all(x, x.size() < 5)" {
		t.Errorf("%d errors: %v", len(verrs), verrs)
	}
}

// TestHostileBudget: per-call cost limit and per-object budget, with the
// API server's messages; a 10 MB string and a long list.
func TestHostileBudget(t *testing.T) {
	skipUnderRace(t)
	s := schemaOf(t, `{"type":"object","properties":{
		"s":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() > 0"},{"rule":"self.contains('b')","message":"needs a b"}]},
		"q":{"type":"array","items":{"type":"integer"},"x-kubernetes-validations":[{"rule":"self.all(x, self.all(y, x >= 0))"}]},
		"strs":{"type":"array","items":{"type":"string","x-kubernetes-validations":[{"rule":"self.matches('^(a+)+$')"}]}},
		"m":{"type":"string","x-kubernetes-validations":[{"rule":"self == 'x'","messageExpression":"self + self + self"}]}}}`)
	big := strings.Repeat("a", 10<<20)
	mb := strings.Repeat("a", 1<<20)
	q := make([]any, 2000)
	for i := range q {
		q[i] = int64(i)
	}
	strs := make([]any, 200)
	for i := range strs {
		strs[i] = mb
	}
	for _, tc := range []struct {
		name string
		obj  map[string]any
		want []string
	}{
		{"per-call limit on a 10 MB string", map[string]any{"s": big}, []string{
			"FieldValueInvalid s: 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: needs a b"}},
		{"per-call limit of a quadratic rule", map[string]any{"q": q}, []string{
			"FieldValueInvalid q: 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, x >= 0))"}},
		{"per-object budget", map[string]any{"strs": strs}, []string{
			"FieldValueInvalid strs[*]: validation failed due to running out of cost budget, no further validation rules will be run"}},
		{"messageExpression over the per-call limit", map[string]any{"m": big}, []string{
			`FieldValueInvalid m: no further validation rules will be run due to call cost exceeds limit for messageExpression: "self + self + self"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errs crdschema.ErrorList
			var left int64
			boundedAlloc(t, 512<<20, func() { errs, left = validate(t, s, tc.obj, nil) })
			got := keys(errs)
			for i := range got {
				got[i] = strings.Join(strings.FieldsFunc(got[i], func(r rune) bool { return false }), "")
				if j := strings.Index(got[i], "strs["); j >= 0 {
					k := strings.Index(got[i][j:], "]")
					got[i] = got[i][:j] + "strs[*" + got[i][j+k:]
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors\n%q\nwant\n%q", got, tc.want)
			}
			if left >= 0 {
				t.Errorf("remaining budget %d, want negative", left)
			}
		})
	}
}

// TestHostileStrings: invalid UTF-8 in property names, map keys and values
// reaches rules without crashing, the same every time.
func TestHostileStrings(t *testing.T) {
	skipUnderRace(t)
	bad := "a\xff\xfeb"
	s := schemaOf(t, `{"type":"object","properties":{
		"s":{"type":"string","maxLength":100,"x-kubernetes-validations":[{"rule":"self.size() < 3"},{"rule":"self.matches('^a')"},{"rule":"self + 'x' != ''"},{"rule":"self.lowerAscii() == self"}]},
		"m":{"type":"object","maxProperties":10,"additionalProperties":{"type":"string","maxLength":10},"x-kubernetes-validations":[{"rule":"self.all(k, k.size() < 3)"},{"rule":"!('x' in self)"}]},
		"u":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}}`)
	obj := map[string]any{"s": bad, "m": map[string]any{bad: bad}, "u": map[string]any{bad: bad}}
	first, _ := validate(t, s, obj, obj)
	second, _ := validate(t, s, obj, obj)
	if !reflect.DeepEqual(keys(first), keys(second)) {
		t.Errorf("not deterministic:\n%q\n%q", keys(first), keys(second))
	}
	if len(first) == 0 {
		t.Error("no errors")
	}
}

// httpRouteCase loads the HTTPRoute schema and example objects.
func httpRouteCase(t testing.TB) (*structural.Schema, []any) {
	t.Helper()
	f, err := os.Open("testdata/httproute.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Schema   json.RawMessage `json:"schema"`
		Requests []struct {
			Object json.RawMessage `json:"object"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	s := schemaOf(t, string(c.Schema))
	var objs []any
	for _, r := range c.Requests {
		o, err := jsonscan.Decode(r.Object)
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, o)
	}
	return s, objs
}

// TestConcurrentCompiledHTTPRoute evaluates the rules of a large real
// schema on different objects, creates and updates, from many goroutines
// (run with -race): every result is the sequential one.
func TestConcurrentCompiledHTTPRoute(t *testing.T) {
	s, objs := httpRouteCase(t)
	c, err := celrules.Compile(s, true)
	if err != nil {
		t.Fatal(err)
	}
	// Break a rule (paths must start with /) in every other object.
	for i, o := range objs {
		spec, _ := o.(map[string]any)["spec"].(map[string]any)
		rules, _ := spec["rules"].([]any)
		if i%2 == 1 && len(rules) > 0 {
			rules[0].(map[string]any)["matches"] = []any{map[string]any{"path": map[string]any{"type": "PathPrefix", "value": "nope"}}}
		}
	}
	run := func(i int) string {
		vr2 := c.Validate(ctx, nil, objs[i], nil)
		errs, left := vr2.Errors, vr2.Remaining
		vr3 := c.Validate(ctx, nil, objs[i], objs[(i+1)%len(objs)])
		uerrs, uleft := vr3.Errors, vr3.Remaining
		return fmt.Sprint(keys(errs), left, keys(uerrs), uleft)
	}
	want := make([]string, len(objs))
	failing := 0
	for i := range objs {
		want[i] = run(i)
		if strings.Contains(want[i], "FieldValue") {
			failing++
		}
	}
	if failing == 0 {
		t.Fatal("no object fails a rule; the test proves less than it should")
	}
	before := fmt.Sprint(objs)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 2 * len(objs) {
				i := (g + k) % len(objs)
				if got := run(i); got != want[i] {
					t.Errorf("object %d: %s\nwant %s", i, got, want[i])
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
