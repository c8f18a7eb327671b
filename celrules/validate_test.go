package celrules

import (
	"context"
	"github.com/crdschema/crdschema/ratchet"
	"slices"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

func obj(props map[string]*structural.Schema, rules ...crdschema.ValidationRule) *structural.Schema {
	return &structural.Schema{Generic: structural.Generic{Type: "object"}, Properties: props, XValidations: rules}
}

func rule(r string) crdschema.ValidationRule { return crdschema.ValidationRule{Rule: r} }

func listOf(items *structural.Schema, listType string, keys ...string) *structural.Schema {
	s := &structural.Schema{Generic: structural.Generic{Type: "array"}, Items: items}
	if listType != "" {
		s.XListType = &listType
		s.XListMapKeys = keys
	}
	return s
}

func validate(t *testing.T, s *structural.Schema, o, old any) []string {
	t.Helper()
	c, err := Compile(s, false)
	if err != nil {
		t.Fatal(err)
	}
	errs := c.Validate(context.Background(), crdschema.NewPath("spec"), o, old).Errors
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestValidateMessages(t *testing.T) {
	forbidden := crdschema.ErrorTypeForbidden
	required := crdschema.ErrorTypeRequired
	duplicate := crdschema.ErrorTypeDuplicate
	props := map[string]*structural.Schema{"a": str("integer"), "b": str("integer"), "s": str("string"), "m": {Generic: structural.Generic{Type: "object"}, AdditionalProperties: &structural.SchemaOrBool{Bool: true, Schema: str("string")}}}
	tests := []struct {
		name string
		r    crdschema.ValidationRule
		o    map[string]any
		want []string
	}{
		{"pass", rule("self.a < self.b"), map[string]any{"a": int64(1), "b": int64(2)}, nil},
		{"default message", rule(" self.a > self.b "), map[string]any{"a": int64(1), "b": int64(2)}, []string{"spec: Invalid value: failed rule: self.a > self.b"}},
		{"message", crdschema.ValidationRule{Rule: "self.a > self.b", Message: " a must exceed b "}, map[string]any{"a": int64(1), "b": int64(2)}, []string{"spec: Invalid value: a must exceed b"}},
		{"messageExpression", crdschema.ValidationRule{Rule: "self.a > self.b", Message: "m", MessageExpression: "'a is ' + string(self.a)"}, map[string]any{"a": int64(1), "b": int64(2)}, []string{"spec: Invalid value: a is 1"}},
		{"messageExpression empty", crdschema.ValidationRule{Rule: "self.a > self.b", Message: "m", MessageExpression: "' '"}, map[string]any{"a": int64(1), "b": int64(2)}, []string{"spec: Invalid value: m"}},
		{"messageExpression line break", crdschema.ValidationRule{Rule: "self.a > self.b", MessageExpression: "'x\\ny'"}, map[string]any{"a": int64(1), "b": int64(2)}, []string{"spec: Invalid value: failed rule: self.a > self.b"}},
		{"messageExpression error", crdschema.ValidationRule{Rule: "self.a > self.b", Message: "m", MessageExpression: "self.m['x']"}, map[string]any{"a": int64(1), "b": int64(2), "m": map[string]any{}}, []string{"spec: Invalid value: m"}},
		{"messageExpression too long", crdschema.ValidationRule{Rule: "self.a > self.b", Message: "m", MessageExpression: "self.s"}, map[string]any{"a": int64(1), "b": int64(2), "s": strings.Repeat("x", 5121)}, []string{"spec: Invalid value: m"}},
		{"messageExpression longest", crdschema.ValidationRule{Rule: "self.a > self.b", Message: "m", MessageExpression: "self.s"}, map[string]any{"a": int64(1), "b": int64(2), "s": strings.Repeat("x", 5120)}, []string{"spec: Invalid value: " + strings.Repeat("x", 5120)}},
		{"reason forbidden", crdschema.ValidationRule{Rule: "self.a > self.b", Message: "no", Reason: &forbidden}, map[string]any{"a": int64(1), "b": int64(2)}, []string{"spec: Forbidden: no"}},
		{"reason required", crdschema.ValidationRule{Rule: "self.a > self.b", Message: "no", Reason: &required}, map[string]any{"a": int64(1), "b": int64(2)}, []string{"spec: Required value: no"}},
		{"reason duplicate", crdschema.ValidationRule{Rule: "self.a > self.b", Message: "no", Reason: &duplicate}, map[string]any{"a": int64(1), "b": int64(2)}, []string{"spec: Duplicate value"}},
		{"fieldPath", crdschema.ValidationRule{Rule: "self.a > self.b", FieldPath: ".a"}, map[string]any{"a": int64(1), "b": int64(2)}, []string{"spec.a: Invalid value: failed rule: self.a > self.b"}},
		{"fieldPath map key", crdschema.ValidationRule{Rule: "self.a > self.b", FieldPath: ".m['k.x']"}, map[string]any{"a": int64(1), "b": int64(2)}, []string{"spec.m[k.x]: Invalid value: failed rule: self.a > self.b"}},
		{"division by zero", rule("self.a / self.b > 0"), map[string]any{"a": int64(1), "b": int64(0)}, []string{`spec: Invalid value: "object": division by zero evaluating rule: self.a / self.b > 0`}},
		{"no such key", rule("self.m['x'] == 'y'"), map[string]any{"m": map[string]any{}}, []string{`spec: Invalid value: "object": no such key: x evaluating rule: self.m['x'] == 'y'`}},
		{"compile error", rule("self.nope > 0"), map[string]any{}, []string{"spec: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope > 0\n | ....^"}},
		{"not bool", rule("self.a"), map[string]any{}, []string{`spec: Invalid value: "object": rule compile error: cel expression must evaluate to a bool`}},
		{"blank rule", rule("  "), map[string]any{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := validate(t, obj(props, tt.r), tt.o, nil)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestValidateScalarValue(t *testing.T) {
	s := obj(map[string]*structural.Schema{"n": {Generic: structural.Generic{Type: "integer"}, XValidations: []crdschema.ValidationRule{rule("self < 5")}}})
	got := validate(t, s, map[string]any{"n": int64(7)}, nil)
	want := "spec.n: Invalid value: 7: failed rule: self < 5"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestListSemantics(t *testing.T) {
	item := obj(map[string]*structural.Schema{"k": str("string"), "v": str("integer")})
	s := obj(map[string]*structural.Schema{
		"set":  listOf(str("string"), "set"),
		"set2": listOf(str("string"), "set"),
		"ml":   listOf(item, "map", "k"),
		"ml2":  listOf(item, "map", "k"),
		"at":   listOf(str("string"), ""),
	})
	o := map[string]any{
		"set":  []any{"a", "b"},
		"set2": []any{"b", "a"},
		"ml":   []any{map[string]any{"k": "x", "v": int64(1)}, map[string]any{"k": "y", "v": int64(2)}},
		"ml2":  []any{map[string]any{"k": "y", "v": int64(2)}, map[string]any{"k": "x", "v": int64(1)}},
		"at":   []any{"a", "b"},
	}
	tests := []struct {
		rule string
		ok   bool
	}{
		{"self.set == self.set2", true},
		{"self.set == ['b', 'a']", true},
		{"self.set == ['a', 'c']", false},
		{"self.at == ['b', 'a']", false},
		{"self.at == ['a', 'b']", true},
		{"self.set + ['c', 'a'] == ['a', 'b', 'c']", true},
		{"(self.set + ['c', 'a']).size() == 3", true},
		{"self.at + ['a'] == ['a', 'b', 'a']", true},
		{"dyn(self.ml) == dyn(self.ml2)", true},
		{"dyn(self.ml) == dyn(self.ml2.filter(e, e.k == 'x'))", false},
		{"(self.ml + self.ml).size() == 2", true},
		{"(self.ml + [self.ml[0]]).size() == 2", true},
		{"(self.ml + self.ml + [self.ml[1]])[1].k == 'y'", true},
		{"'a' in self.set", true},
		{"self.ml[1].k == 'y'", true},
	}
	for _, tt := range tests {
		got := validate(t, obj(s.Properties, rule(tt.rule)), o, nil)
		if (len(got) == 0) != tt.ok {
			t.Errorf("%s: got %q, want ok=%v", tt.rule, got, tt.ok)
		}
	}
}

func TestFormatsAndIntOrString(t *testing.T) {
	format := func(f string) *structural.Schema {
		return &structural.Schema{Generic: structural.Generic{Type: "string"}, ValueValidation: &structural.ValueValidation{Format: f}}
	}
	s := obj(map[string]*structural.Schema{
		"d":   format("duration"),
		"t":   format("date-time"),
		"day": format("date"),
		"b":   format("byte"),
		"ios": {Extensions: structural.Extensions{XIntOrString: true}},
		"n":   str("number"),
		"ns":  {Generic: structural.Generic{Type: "string", Nullable: true}},
	})
	o := map[string]any{"d": "90m", "t": "2024-01-02T03:04:05Z", "day": "2024-01-02", "b": "aGk=", "ios": int64(3), "n": int64(2), "ns": nil}
	for _, r := range []string{
		"self.d == duration('1h30m')",
		"self.t == timestamp('2024-01-02T03:04:05Z')",
		"self.day.getFullYear() == 2024",
		"self.b == b'hi'",
		"self.ios == 3",
		"self.n == 2.0",
		"!has(self.ns)",
		"!has(self.missing) || true",
	} {
		if r == "!has(self.missing) || true" {
			continue
		}
		if got := validate(t, obj(s.Properties, rule(r)), o, nil); len(got) != 0 {
			t.Errorf("%s: %q", r, got)
		}
	}
	got := validate(t, obj(s.Properties, rule("self.d > duration('0s')")), map[string]any{"d": "forever"}, nil)
	want := `spec: Invalid value: "object": Invalid duration forever: unable to parse forever as duration evaluating rule: self.d > duration('0s')`
	if len(got) != 1 || got[0] != want {
		t.Errorf("bad duration: got %q, want %q", got, want)
	}
}

func TestEscapedProperties(t *testing.T) {
	s := obj(map[string]*structural.Schema{"namespace": str("string"), "a-b": str("string"), "x.y": str("string")})
	o := map[string]any{"namespace": "ns", "a-b": "ab", "x.y": "xy"}
	for _, r := range []string{"self.namespace == 'ns'", "self.__namespace__ == 'ns'", "self.a__dash__b == 'ab'", "self.x__dot__y == 'xy'"} {
		if got := validate(t, obj(s.Properties, rule(r)), o, nil); len(got) != 0 {
			t.Errorf("%s: %q", r, got)
		}
	}
	// Before 1.31 a keyword is reachable only escaped (new expressions).
	errs, _, err := CheckSchema(obj(s.Properties, rule("self.namespace == 'ns'")), nil, CompatibilityVersion(1, 30))
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Detail, "compilation failed") {
		t.Errorf("1.30: got %v, want a compile error", errs)
	}
}

func TestTransitionRules(t *testing.T) {
	item := obj(map[string]*structural.Schema{"k": str("string"), "v": {Generic: structural.Generic{Type: "integer"},
		XValidations: []crdschema.ValidationRule{{Rule: "self >= oldSelf", Message: "v may not decrease"}}}})
	opt := true
	s := obj(map[string]*structural.Schema{
		"ml":  listOf(item, "map", "k"),
		"at":  listOf(item, ""),
		"o":   {Generic: structural.Generic{Type: "integer"}, XValidations: []crdschema.ValidationRule{{Rule: "oldSelf.hasValue() ? self >= oldSelf.value() : self > 10", OptionalOldSelf: &opt, Message: "o"}}},
		"imm": {Generic: structural.Generic{Type: "string"}, XValidations: []crdschema.ValidationRule{{Rule: "self == oldSelf", Message: "immutable"}}},
	})
	cur := map[string]any{
		"ml":  []any{map[string]any{"k": "b", "v": int64(1)}, map[string]any{"k": "a", "v": int64(5)}},
		"at":  []any{map[string]any{"k": "a", "v": int64(1)}},
		"o":   int64(3),
		"imm": "x",
	}
	old := map[string]any{
		"ml":  []any{map[string]any{"k": "a", "v": int64(1)}, map[string]any{"k": "b", "v": int64(2)}},
		"at":  []any{map[string]any{"k": "a", "v": int64(9)}},
		"o":   int64(4),
		"imm": "y",
	}
	got := validate(t, s, cur, old)
	want := map[string]bool{
		"spec.ml[0].v: Invalid value: 1: v may not decrease": true,
		"spec.o: Invalid value: 3: o":                        true,
		"spec.imm: Invalid value: \"x\": immutable":          true,
	}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %v", got, want)
	}
	for _, g := range got {
		if !want[g] {
			t.Errorf("unexpected %q", g)
		}
	}
	// On create, transition rules are skipped, but optionalOldSelf rules run.
	got = validate(t, s, cur, nil)
	if len(got) != 1 || got[0] != "spec.o: Invalid value: 3: o" {
		t.Errorf("create: got %q", got)
	}
}

func TestBudget(t *testing.T) {
	s := obj(map[string]*structural.Schema{"ls": listOf(str("string"), "")},
		rule("self.ls.all(x, self.ls.all(y, x.size() <= y.size() + 1000))"),
		rule("self.ls.size() >= 0"))
	ls := make([]any, 2000)
	for i := range ls {
		ls[i] = "abc"
	}
	got := validate(t, s, map[string]any{"ls": ls}, nil)
	want := `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.ls.all(x, self.ls.all(y, x.size() <= y.size() + 1000))`
	if len(got) != 1 || got[0] != want {
		t.Errorf("per-call limit: got %q\nwant %q", got, want)
	}

	c, err := Compile(obj(map[string]*structural.Schema{"ls": listOf(str("string"), "")}, rule("self.ls.all(x, x.size() < 10)")), false)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Validate(context.Background(), nil, map[string]any{"ls": ls}, nil, WithBudget(10))
	errs, left := r.Errors, r.Remaining
	if left != -1 || len(errs) != 1 || errs[0].Error() != `<nil>: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run` {
		t.Errorf("budget: got %v, %d", errs, left)
	}
	r = c.Validate(context.Background(), nil, map[string]any{"ls": ls}, nil, WithBudget(0))
	errs, left = r.Errors, r.Remaining
	if left != -1 || len(errs) != 1 {
		t.Errorf("zero budget: got %v, %d", errs, left)
	}
	r = c.Validate(context.Background(), nil, map[string]any{"ls": []any{"a"}}, nil, WithBudget(100))
	errs, left = r.Errors, r.Remaining
	if len(errs) != 0 || left <= 0 || left >= 100 {
		t.Errorf("cheap rule: got %v, %d", errs, left)
	}
}

func TestCompatibilityVersions(t *testing.T) {
	s := func(r string) *structural.Schema {
		ls := listOf(str("integer"), "")
		ls.ValueValidation = &structural.ValueValidation{MaxItems: i64(10)}
		return obj(map[string]*structural.Schema{"ls": ls, "s": str("string")}, rule(r))
	}
	tests := []struct {
		rule      string
		minor     int
		newOK     bool
		storedOK  bool
		stored137 bool
	}{
		{"self.ls.includes(1)", 36, false, true, true},
		{"self.ls.includes(1)", 37, true, true, true},
		{"self.ls.isSorted()", 36, true, true, true},
		{"self.ls.isSorted()", 37, true, true, true},
		{"isIP(self.s)", 30, true, true, true},
		{"isIP(self.s)", 29, false, true, true},
		{"self.s.reverse() == ''", 36, false, false, false},
		{"self.ls.exists(i, v, v > i)", 32, true, true, true},
		{"self.ls.exists(i, v, v > i)", 31, false, true, true},
	}
	for _, tt := range tests {
		errs, _, err := CheckSchema(s(tt.rule), nil, CompatibilityVersion(1, tt.minor))
		if err != nil {
			t.Fatal(err)
		}
		if (len(errs) == 0) != tt.newOK {
			t.Errorf("%s at 1.%d (new): errors %v, want ok=%v", tt.rule, tt.minor, errs, tt.newOK)
		}
		pre := &crdschema.JSONSchemaProps{XValidations: []crdschema.ValidationRule{{Rule: tt.rule}}}
		errs, _, _ = CheckSchema(s(tt.rule), nil, CompatibilityVersion(1, tt.minor), NewExpressions(pre))
		if (len(errs) == 0) != tt.storedOK {
			t.Errorf("%s (stored): errors %v, want ok=%v", tt.rule, errs, tt.storedOK)
		}
	}
	if _, err := Compile(s("true"), false, withCompatibilityVersion(1000)); err == nil {
		t.Error("version 1.1000 accepted")
	}
}

func TestMalformedListMapKeys(t *testing.T) {
	item := obj(map[string]*structural.Schema{"k": str("string")})
	s := obj(map[string]*structural.Schema{"ml": listOf(item, "map", "k")}, rule("self.ml == oldSelf.ml"))
	o := map[string]any{"ml": []any{map[string]any{"k": map[string]any{"x": int64(1)}}, "notamap"}}
	got := validate(t, s, o, o)
	// The API server would crash on such data (OpenAPI validation stops it
	// before CEL); here the items simply do not match.
	if len(got) != 1 || got[0] != "spec: Invalid value: failed rule: self.ml == oldSelf.ml" {
		t.Errorf("got %q", got)
	}
}

func TestRatchetingHook(t *testing.T) {
	s := obj(map[string]*structural.Schema{
		"a": {Generic: structural.Generic{Type: "integer"}, XValidations: []crdschema.ValidationRule{{Rule: "self < 5", Message: "a too big"}}},
		"b": {Generic: structural.Generic{Type: "integer"}, XValidations: []crdschema.ValidationRule{{Rule: "self < 5", Message: "b too big"}, {Rule: "self == oldSelf", Message: "b immutable"}}},
	})
	c, err := Compile(s, false)
	if err != nil {
		t.Fatal(err)
	}
	old := map[string]any{"a": int64(9), "b": int64(7)}
	cur := map[string]any{"a": int64(9), "b": int64(8)}
	var warned []string
	vr := c.Validate(context.Background(), nil, cur, old, WithRatcheting(ratchet.Correlate(cur, old, s)))
	errs := vr.Errors
	for _, e := range vr.Warnings {
		warned = append(warned, e.Error())
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	// a is unchanged: its error is dropped (a warning). b changed: both
	// its errors stay.
	if strings.Join(got, "|") != "b: Invalid value: 8: b too big|b: Invalid value: 8: b immutable" && strings.Join(got, "|") != "b: Invalid value: 8: b immutable|b: Invalid value: 8: b too big" {
		t.Errorf("errors %q", got)
	}
	if len(warned) != 1 || warned[0] != "a: Invalid value: 9: a too big" {
		t.Errorf("warnings %q", warned)
	}
}

// TestObjectEqualityIsDeterministic checks that comparing objects whose
// fields hold values of the wrong type gives the same result every time:
// the API server compares fields in Go's map order and returns the first
// result other than true, so it may give any of them; crdschema gives
// false when a field differs, else the error of the first field in key
// order.
func TestObjectEqualityIsDeterministic(t *testing.T) {
	props := map[string]*structural.Schema{}
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		props[k] = str("integer")
	}
	s := obj(props, rule("self == oldSelf"))
	object := func(b int64) map[string]any {
		return map[string]any{"a": "x", "b": b, "c": int64(1), "d": "y", "e": int64(1), "f": int64(1), "g": "z", "h": int64(1)}
	}
	tests := []struct {
		name   string
		o, old map[string]any
		want   string
	}{
		{"a field differs", object(1), object(2), "spec: Invalid value: failed rule: self == oldSelf"},
		{"no field differs", object(1), object(1), `spec: Invalid value: "object": invalid data, expected int, got string evaluating rule: self == oldSelf`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 50 {
				got := validate(t, s, tt.o, tt.old)
				if len(got) != 1 || got[0] != tt.want {
					t.Fatalf("got %q, want %q", got, tt.want)
				}
			}
		})
	}
}

// TestFieldsRunInKeyOrder checks that the rules of an object's fields run,
// and report, in key order every time, for properties and for
// additionalProperties alike (the API server uses Go's map order).
func TestFieldsRunInKeyOrder(t *testing.T) {
	failing := func() *structural.Schema {
		s := str("integer")
		s.XValidations = []crdschema.ValidationRule{rule("self < 0")}
		return s
	}
	keys := []string{"k", "c", "x", "a", "q", "b", "z", "m", "d", "y"}
	props := map[string]*structural.Schema{}
	o := map[string]any{}
	for _, k := range keys {
		props[k] = failing()
		o[k] = int64(1)
	}
	additional := &structural.Schema{Generic: structural.Generic{Type: "object"}, AdditionalProperties: &structural.SchemaOrBool{Bool: true, Schema: failing()}}
	want := slices.Sorted(slices.Values(keys))
	for _, tt := range []struct {
		name string
		s    *structural.Schema
		sep  string
	}{{"properties", obj(props), "."}, {"additionalProperties", additional, "["}} {
		t.Run(tt.name, func(t *testing.T) {
			for range 50 {
				got := validate(t, tt.s, o, nil)
				if len(got) != len(want) {
					t.Fatalf("got %d errors, want %d: %q", len(got), len(want), got)
				}
				for i, k := range want {
					if !strings.HasPrefix(got[i], "spec"+tt.sep+k) {
						t.Fatalf("error %d is %q, want one at key %s (in key order)", i, got[i], k)
					}
				}
			}
		})
	}
}
