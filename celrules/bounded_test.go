package celrules

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/crdschema/crdschema/ratchet"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

// sortedErrors renders errs in an order independent of map iteration.
func sortedErrors(errs crdschema.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = string(e.Type) + " " + e.Field + ": " + selfTypeName.ReplaceAllString(e.Detail, "selfType<N>")
	}
	sort.Strings(out)
	return out
}

// checkBounded validates obj (and old) with cost tracking and as a bounded
// run, and checks that both report the same errors and that, when the
// bounded run did without tracking, the cost it was bounded by is at least
// the cost the tracked run spent. It reports whether the bounded run did
// without tracking.
func checkBounded(t *testing.T, name string, c *Compiled, obj, old any, budget int64, opts ...ValidateOption) bool {
	t.Helper()
	ctx := context.Background()
	tracked := c.Validate(ctx, nil, obj, old, append(opts, WithBudget(budget))...)
	want, left := tracked.Errors, tracked.Remaining
	bounded := c.Validate(ctx, nil, obj, old, append(opts, WithBudget(budget), WithBoundedCost())...)
	got, boundedLeft := bounded.Errors, bounded.Remaining
	if w, g := sortedErrors(want), sortedErrors(got); strings.Join(w, "\n") != strings.Join(g, "\n") {
		t.Errorf("%s: tracked run:\n%s\nbounded run:\n%s", name, strings.Join(w, "\n"), strings.Join(g, "\n"))
	}
	if c == nil {
		return false
	}
	bound, ok := boundedRun(c.root, obj, old, budget)
	if !ok {
		if boundedLeft != left {
			t.Errorf("%s: the bounded run fell back to tracking but left %d, the tracked run %d", name, boundedLeft, left)
		}
		return false
	}
	spent := budget - left
	if uint64(spent) > bound {
		t.Errorf("%s: the tracked run spent %d, more than the bound %d", name, spent, bound)
	}
	if boundedLeft != budget-int64(bound) {
		t.Errorf("%s: the bounded run left %d, want %d less the bound %d", name, boundedLeft, budget, bound)
	}
	return true
}

// TestBoundedGolden runs every request of the golden cases both ways: the
// same errors, and bounds that are never below the cost actually spent.
func TestBoundedGolden(t *testing.T) {
	cases := loadCases(t)
	var runs, untracked int
	for name, c := range cases {
		if len(c.CRDErrors) > 0 {
			continue
		}
		s := mustSchema(t, c.Schema)
		if s == nil {
			continue
		}
		compiled, err := Compile(s, true)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range c.Requests {
			obj := mustDecode(t, r.Object)
			old := mustDecode(t, r.OldObject)
			var opts []ValidateOption
			if old != nil {
				opts = append(opts, WithRatcheting(ratchet.Correlate(obj, old, s)))
			}
			runs++
			if checkBounded(t, fmt.Sprintf("%s request %d", name, i), compiled, obj, old, RuntimeBudget, opts...) {
				untracked++
			}
		}
	}
	t.Logf("%d of %d requests ran without cost tracking", untracked, runs)
	if untracked == 0 || untracked == runs {
		t.Errorf("%d of %d requests ran without cost tracking: the cases should have both", untracked, runs)
	}
}

// TestBoundedHTTPRoute checks the Gateway API HTTPRoute examples, whose
// rules are the heaviest of the benchmarks: all run without tracking.
func TestBoundedHTTPRoute(t *testing.T) {
	s, objs := httpRoute(t)
	c, err := Compile(s, true)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range objs {
		if !checkBounded(t, fmt.Sprintf("object %d", i), c, o, nil, RuntimeBudget) {
			t.Errorf("object %d: ran with tracking", i)
		}
		if !checkBounded(t, fmt.Sprintf("object %d as an update", i), c, o, o, RuntimeBudget) {
			t.Errorf("object %d as an update: ran with tracking", i)
		}
	}
}

func compileJSON(t *testing.T, schema string) *Compiled {
	t.Helper()
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(schema), &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compile(s, false)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func strings1(n int, s string) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestBoundedFallsBack covers each reason a run must track: the bound
// could reach the budget or the per-call limit, or the object is larger
// than the sizes the bounds assume. The errors, the budget and per-call
// errors among them, are those of a tracked run.
func TestBoundedFallsBack(t *testing.T) {
	const matchAll = `"x-kubernetes-validations":[{"rule":"self.all(x, x.matches('^(a|b)*c$'))"}]`
	tests := []struct {
		name, schema string
		obj          any
		budget       int64
		untracked    bool
		wantDetail   string // in one of the errors
	}{{
		name:      "small object, bounded list",
		schema:    `{"type":"object","properties":{"l":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":10},` + matchAll + `}}}`,
		obj:       map[string]any{"l": strings1(3, "abc")},
		budget:    RuntimeBudget,
		untracked: true,
	}, {
		name:       "bound reaches the budget",
		schema:     `{"type":"object","properties":{"l":{"type":"array","maxItems":1000,"items":{"type":"string","maxLength":1000},` + matchAll + `}}}`,
		obj:        map[string]any{"l": strings1(1000, strings.Repeat("a", 999)+"c")},
		budget:     200000,
		wantDetail: "running out of cost budget",
	}, {
		name:       "bound above the per-call limit",
		schema:     `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"},` + matchAll + `}}}`,
		obj:        map[string]any{"l": strings1(4000, strings.Repeat("a", 999)+"c")},
		budget:     RuntimeBudget,
		wantDetail: "call cost exceeds limit",
	}, {
		name:   "string longer than its maxLength",
		schema: `{"type":"object","properties":{"l":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":10},` + matchAll + `}}}`,
		obj:    map[string]any{"l": strings1(3, strings.Repeat("a", 100000))},
		budget: 30000,
		// with tracking, the matches run out of the small budget
		wantDetail: "running out of cost budget",
	}, {
		name:   "list longer than its maxItems",
		schema: `{"type":"object","properties":{"l":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":10},` + matchAll + `}}}`,
		obj:    map[string]any{"l": strings1(2000, "abc")},
		budget: 5000,
		// with tracking, the matches run out of the small budget
		wantDetail: "running out of cost budget",
	}, {
		name:   "map larger than its maxProperties",
		schema: `{"type":"object","properties":{"m":{"type":"object","maxProperties":2,"additionalProperties":{"type":"string","maxLength":3},"x-kubernetes-validations":[{"rule":"self.all(k, self[k] != 'x')"}]}}}`,
		obj:    map[string]any{"m": map[string]any{"a": "y", "b": "y", "c": "y"}},
		budget: RuntimeBudget,
	}, {
		name:   "map key longer than the key bound",
		schema: `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string","maxLength":3},"x-kubernetes-validations":[{"rule":"self.all(k, k.matches('^(a|b)*c$'))"}]}}}`,
		obj:    map[string]any{"m": map[string]any{strings.Repeat("a", maxKeyBytes+1): "y"}},
		budget: RuntimeBudget,
	}, {
		name:      "map keys within the key bound",
		schema:    `{"type":"object","properties":{"m":{"type":"object","maxProperties":5,"additionalProperties":{"type":"string","maxLength":3},"x-kubernetes-validations":[{"rule":"self.all(k, k.matches('^(a|b)*c$'))"}]}}}`,
		obj:       map[string]any{"m": map[string]any{strings.Repeat("a", maxKeyBytes): "y"}},
		budget:    RuntimeBudget,
		untracked: true,
	}, {
		name:   "too many keys in an object",
		schema: `{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"a":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"b":{"type":"integer"}}}},"x-kubernetes-validations":[{"rule":"self.a == self.a"}]}`,
		obj: func() any {
			a := map[string]any{"b": int64(1)}
			for i := range 100 {
				a[fmt.Sprint("k", i)] = int64(i)
			}
			return map[string]any{"a": a}
		}(),
		budget: RuntimeBudget,
	}, {
		name:      "budget of zero",
		schema:    `{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a > 0"}]}`,
		obj:       map[string]any{"a": int64(1)},
		budget:    0,
		untracked: false, wantDetail: "running out of cost budget",
	}, {
		name:      "bound exactly the budget",
		schema:    `{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a > 0"}]}`,
		obj:       map[string]any{"a": int64(1)},
		budget:    -1, // set below to the bound
		untracked: false,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := compileJSON(t, tt.schema)
			budget := tt.budget
			if budget == -1 {
				b, ok := boundedRun(c.root, tt.obj, nil, RuntimeBudget)
				if !ok {
					t.Fatal("no bound")
				}
				budget = int64(b)
			}
			if got := checkBounded(t, tt.name, c, tt.obj, nil, budget); got != tt.untracked {
				t.Errorf("ran without tracking: %v, want %v", got, tt.untracked)
			}
			if tt.wantDetail != "" {
				errs := c.Validate(context.Background(), nil, tt.obj, nil, WithBudget(budget), WithBoundedCost()).Errors
				found := false
				for _, e := range errs {
					found = found || strings.Contains(e.Detail, tt.wantDetail)
				}
				if !found {
					t.Errorf("no error says %q: %v", tt.wantDetail, errs)
				}
			}
		})
	}
}

// TestBoundedScalarSizes pins down why the bounds do not use the API
// server's estimates as they are: those give integers and objects size 0,
// while comparing them costs 1 and more at run time.
func TestBoundedScalarSizes(t *testing.T) {
	c := compileJSON(t, `{"type":"object","properties":{"a":{"type":"integer"},"o":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}}},"x-kubernetes-validations":[{"rule":"self.a == 1 && self.a != 2 && self.o == oldSelf.o"}]}`)
	obj := map[string]any{"a": int64(1), "o": map[string]any{"x": int64(1), "y": int64(2)}}
	vr1 := c.Validate(context.Background(), nil, obj, obj)
	errs, left := vr1.Errors, vr1.Remaining
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	spent := uint64(RuntimeBudget - left)
	if est := c.root.rules[0].rule.maxCost; est >= spent {
		t.Logf("the API server's estimate %d is not below the cost %d any more", est, spent)
	} else {
		t.Logf("the API server's estimate %d is below the cost %d", est, spent)
	}
	if !checkBounded(t, "comparisons", c, obj, obj, RuntimeBudget) {
		t.Error("ran with tracking")
	}
}

// TestBoundedMessageExpression checks that a messageExpression evaluated
// without tracking gives the tracked run's message.
func TestBoundedMessageExpression(t *testing.T) {
	c := compileJSON(t, `{"type":"object","properties":{"a":{"type":"integer"},"s":{"type":"string","maxLength":10}},"x-kubernetes-validations":[{"rule":"self.a > 5","messageExpression":"'a is ' + string(self.a) + ', s is ' + self.s"},{"rule":"self.a > 5","messageExpression":"''"}]}`)
	obj := map[string]any{"a": int64(1), "s": "abc"}
	if !checkBounded(t, "message", c, obj, nil, RuntimeBudget) {
		t.Error("ran with tracking")
	}
	errs := c.Validate(context.Background(), nil, obj, nil, WithBoundedCost()).Errors
	if len(errs) != 2 || errs[0].Detail != "a is 1, s is abc" || errs[1].Detail != "failed rule: self.a > 5" {
		t.Errorf("errors: %v", errs)
	}
}

// TestBoundedOldUnderUnescapedName: the old value of a node whose type is
// not part of its parent's (a property CEL cannot name) is checked against
// the sizes too, even below a node whose rules were already bounded.
func TestBoundedOldUnderUnescapedName(t *testing.T) {
	c := compileJSON(t, `{"type":"object","x-kubernetes-validations":[{"rule":"has(self.a)"}],"properties":{"a":{"type":"object","properties":{
		"1x":{"type":"array","maxItems":2,"items":{"type":"string","maxLength":5},"x-kubernetes-validations":[{"rule":"oldSelf.all(s, s.matches('^(a|b)*c$'))"}]}}}}}`)
	obj := map[string]any{"a": map[string]any{"1x": []any{"abc"}}}
	old := map[string]any{"a": map[string]any{"1x": strings1(2000, strings.Repeat("ab", 50)+"c")}}
	if checkBounded(t, "small old list", c, obj, map[string]any{"a": map[string]any{"1x": []any{"abc"}}}, RuntimeBudget) != true {
		t.Error("an old value within the sizes: ran with tracking")
	}
	if checkBounded(t, "oversized old list", c, obj, old, 20000) {
		t.Error("an old value beyond the sizes: ran without tracking")
	}
	errs := c.Validate(context.Background(), nil, obj, old, WithBudget(20000), WithBoundedCost()).Errors
	if len(errs) != 1 || !strings.Contains(errs[0].Detail, "running out of cost budget") {
		t.Errorf("errors %v, want the budget error", errs)
	}
}

// TestBoundedPlainOptionalOldSelf: before 1.37 an optional oldSelf holds
// plain JSON, where a date-time is a string of any length; comparing two
// such strings costs by their length. A string beyond the serialized size
// of a date-time makes the run track its cost.
func TestBoundedPlainOptionalOldSelf(t *testing.T) {
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{"t":{"type":"string","format":"date-time"}},
		"x-kubernetes-validations":[{"rule":"!oldSelf.hasValue() || oldSelf.value().t == oldSelf.value().t","optionalOldSelf":true}]}`), &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{"1.36", "1.37"} {
		kv, err := crdschema.ParseKubernetesVersion(version)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Compile(s, false, WithKubernetesVersion(kv))
		if err != nil {
			t.Fatal(err)
		}
		obj := map[string]any{"t": "2006-01-02T15:04:05Z"}
		if !checkBounded(t, version+" date-time", c, obj, obj, RuntimeBudget) {
			t.Errorf("%s: a date-time: ran with tracking", version)
		}
		long := map[string]any{"t": strings.Repeat("x", 100000)}
		if checkBounded(t, version+" long string", c, obj, long, 1000) {
			t.Errorf("%s: a long string: ran without tracking", version)
		}
	}
}
