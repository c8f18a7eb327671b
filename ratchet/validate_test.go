package ratchet

import (
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/validation"
)

func compiled(t testing.TB, schema string) compiledCase {
	t.Helper()
	return compileSchema(t, []byte(schema))
}

func texts(errs crdschema.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func checkTexts(t *testing.T, what string, got crdschema.ErrorList, want []string) {
	t.Helper()
	g := texts(got)
	if len(g) != len(want) {
		t.Fatalf("%s: got %d\n  %q\nwant %d\n  %q", what, len(g), g, len(want), want)
	}
	left := map[string]int{}
	for _, w := range want {
		left[w]++
	}
	for _, s := range g {
		if left[s] == 0 {
			t.Fatalf("%s: unexpected %q\ngot  %q\nwant %q", what, s, g, want)
		}
		left[s]--
	}
}

const blockedText = "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

func TestValidate(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"apiVersion":{"type":"string"},"kind":{"type":"string"},
		"metadata":{"type":"object"},
		"spec":{"type":"object","properties":{
			"image":{"type":"string","maxLength":5},
			"replicas":{"type":"integer"},
			"names":{"type":"array","items":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 3"}]}},
			"limits":{"type":"object","additionalProperties":{"type":"integer",
				"x-kubernetes-validations":[{"rule":"oldSelf.hasValue() || self > 10","optionalOldSelf":true},{"rule":"self >= oldSelf","message":"must not shrink"}]}},
			"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
			"emb":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
			"phase":{"type":"string","x-kubernetes-validations":[{"rule":"self != 'bad'"}]}
		}}}}`
	c := compiled(t, schema)
	obj := func(spec string) map[string]any {
		return mustJSON(t, `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n"},"spec":`+spec+`}`).(map[string]any)
	}
	tests := []struct {
		name          string
		new, old      string
		prior         crdschema.ErrorList
		errs, warning []string
	}{
		{name: "unchanged too long field is a warning",
			new: `{"image":"toolong","replicas":2}`, old: `{"image":"toolong","replicas":1}`,
			warning: []string{"spec.image: Too long: may not be more than 5 bytes"}},
		{name: "changed too long field blocks the rules",
			new: `{"image":"toolong2","phase":"bad"}`, old: `{"image":"toolong","phase":"bad"}`,
			errs: []string{"spec.image: Too long: may not be more than 5 bytes", blockedText}},
		{name: "ratcheted errors do not block the rules",
			new: `{"image":"toolong","phase":"bad","replicas":2}`, old: `{"image":"toolong","phase":"good"}`,
			errs:    []string{`spec.phase: Invalid value: "bad": failed rule: self != 'bad'`},
			warning: []string{"spec.image: Too long: may not be more than 5 bytes"}},
		{name: "prior errors block the rules",
			new: `{"phase":"bad"}`, old: `{"phase":"good"}`,
			prior: crdschema.ErrorList{crdschema.Required(crdschema.NewPath("metadata", "name"), "")},
			errs:  []string{blockedText}},
		{name: "prior errors of other types do not",
			new: `{"phase":"bad"}`, old: `{"phase":"good"}`,
			prior: crdschema.ErrorList{crdschema.Invalid(crdschema.NewPath("metadata", "name"), "x", "bad")},
			errs:  []string{`spec.phase: Invalid value: "bad": failed rule: self != 'bad'`}},
		{name: "unchanged rule failure is a warning",
			new: `{"phase":"bad","replicas":2}`, old: `{"phase":"bad"}`,
			warning: []string{`spec.phase: Invalid value: "bad": failed rule: self != 'bad'`}},
		{name: "items of an unchanged atomic list ratchet through the list",
			new: `{"names":["long"],"replicas":2}`, old: `{"names":["long"]}`,
			warning: []string{`spec.names[0]: Invalid value: "long": failed rule: self.size() < 3`}},
		{name: "items of a changed atomic list do not",
			new: `{"names":["long","ok"]}`, old: `{"names":["long"]}`,
			errs: []string{`spec.names[0]: Invalid value: "long": failed rule: self.size() < 3`}},
		{name: "optionalOldSelf rule runs on a new key",
			new: `{"limits":{"a":20,"b":5}}`, old: `{"limits":{"a":20}}`,
			errs: []string{`spec.limits[b]: Invalid value: 5: failed rule: oldSelf.hasValue() || self > 10`}},
		{name: "optionalOldSelf rule sees the old value",
			new: `{"limits":{"a":5}}`, old: `{"limits":{"a":3}}`},
		{name: "transition rule is never ratcheted",
			new: `{"limits":{"a":5},"replicas":1}`, old: `{"limits":{"a":6}}`,
			errs: []string{`spec.limits[a]: Invalid value: 5: must not shrink`}},
		{name: "stored set duplicates are not reported",
			new: `{"tags":["a","a","b","b"]}`, old: `{"tags":["a","a"]}`},
		{name: "new set duplicates are",
			new: `{"tags":["a","a"]}`, old: `{"tags":["a"]}`,
			errs: []string{`spec.tags[1]: Duplicate value: "a"`}},
		{name: "embedded resources are never ratcheted",
			new: `{"emb":{"metadata":{}}}`, old: `{"emb":{"metadata":{}}}`,
			errs: []string{"spec.emb.apiVersion: Required value", "spec.emb.kind: Required value", blockedText}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs, warnings := Validate(c.v, c.rules, c.schema, obj(tt.new), obj(tt.old), WithPriorErrors(tt.prior))
			checkTexts(t, "errors", errs, tt.errs)
			checkTexts(t, "warnings", warnings, tt.warning)
		})
	}
}

func TestValidateWithoutRules(t *testing.T) {
	c := compiled(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{"image":{"type":"string","maxLength":1}}}}}`)
	newObj := mustJSON(t, `{"spec":{"image":"xx"}}`).(map[string]any)
	oldObj := mustJSON(t, `{"spec":{"image":"x"}}`).(map[string]any)
	want := []string{"spec.image: Too long: may not be more than 1 byte"}
	// No rule validator, no blocking error: with compiled rules of a
	// schema without rules, and with none at all.
	errs, _ := Validate(c.v, c.rules, c.schema, newObj, oldObj)
	checkTexts(t, "errors", errs, want)
	errs, _ = Validate(c.v, nil, c.schema, newObj, oldObj)
	checkTexts(t, "errors", errs, want)
	// Without an old object nothing ratchets: it validates a create.
	errs, _ = Validate(c.v, nil, c.schema, oldObj, nil)
	checkTexts(t, "errors", errs, nil)
	errs, _ = Validate(c.v, nil, c.schema, newObj, nil)
	checkTexts(t, "errors", errs, want)
}

func TestValidateStatus(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"spec":{"type":"object","properties":{"image":{"type":"string","maxLength":1}}},
		"status":{"type":"object","properties":{
			"phase":{"type":"string","enum":["Ready"]},
			"count":{"type":"integer","x-kubernetes-validations":[{"rule":"self < 10"}]}}}}}`
	c := compiled(t, schema)
	tests := []struct {
		name          string
		new, old      string
		errs, warning []string
	}{
		{name: "unchanged status field",
			new: `{"spec":{"image":"xx"},"status":{"phase":"Unknown","count":1}}`, old: `{"spec":{"image":"xx"},"status":{"phase":"Unknown","count":2}}`,
			warning: []string{`status.phase: Unsupported value: "Unknown": supported values: "Ready"`}},
		{name: "changed status field",
			new: `{"status":{"phase":"Gone"}}`, old: `{"status":{"phase":"Unknown"}}`,
			errs: []string{`status.phase: Unsupported value: "Gone": supported values: "Ready"`, blockedText}},
		{name: "no old status",
			new: `{"status":{"phase":"Gone"}}`, old: `{}`,
			errs: []string{`status.phase: Unsupported value: "Gone": supported values: "Ready"`, blockedText}},
		{name: "rules run on the whole object",
			new: `{"status":{"count":12}}`, old: `{"status":{"count":11}}`,
			errs: []string{`status.count: Invalid value: 12: failed rule: self < 10`}},
		{name: "rules ratchet",
			new: `{"spec":{"image":"a"},"status":{"count":12}}`, old: `{"status":{"count":12}}`,
			warning: []string{`status.count: Invalid value: 12: failed rule: self < 10`}},
		{name: "without status only the rules run",
			new: `{"spec":{"image":"toolong"}}`, old: `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newObj, oldObj := mustJSON(t, tt.new).(map[string]any), mustJSON(t, tt.old).(map[string]any)
			errs, warnings := ValidateStatus(c.status, c.rules, c.schema, newObj, oldObj)
			checkTexts(t, "errors", errs, tt.errs)
			checkTexts(t, "warnings", warnings, tt.warning)
		})
	}
}

func TestValidateOptions(t *testing.T) {
	c := compiled(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"a":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 2"}]},
		"b":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 2"}]}}}}}`)
	newObj := mustJSON(t, `{"spec":{"a":"xx","b":"yy"}}`).(map[string]any)
	oldObj := mustJSON(t, `{"spec":{"a":"xx"}}`).(map[string]any)

	// A shared correlation gives the same result, and keeps what it found.
	corr := Correlate(newObj, oldObj, c.schema)
	errs, warnings := Validate(c.v, c.rules, c.schema, newObj, oldObj, WithCorrelation(corr))
	checkTexts(t, "errors", errs, []string{`spec.b: Invalid value: "yy": failed rule: self.size() < 2`})
	checkTexts(t, "warnings", warnings, []string{`spec.a: Invalid value: "xx": failed rule: self.size() < 2`})
	if corr.Field("spec") == nil || corr.Field("spec").Field("a") == nil || corr.Field("spec").Field("a").eq != eqTrue {
		t.Error("the shared correlation was not used")
	}

	// A budget too small for one rule (one rule only: the order of
	// properties is Go's map order, as upstream's).
	single := mustJSON(t, `{"spec":{"a":"xx"}}`).(map[string]any)
	errs, _ = Validate(c.v, c.rules, c.schema, single, oldObj, WithBudget(1))
	checkTexts(t, "errors", errs, []string{"spec.a: Invalid value: \"string\": validation failed due to running out of cost budget, no further validation rules will be run"})
}

// A nil validator validates nothing, so that callers may pass what they
// have.
func TestValidateNilParts(t *testing.T) {
	var v *validation.Validator
	errs, warnings := Validate(v, (*celrules.Compiled)(nil), nil, map[string]any{"a": int64(1)}, nil)
	if len(errs) != 0 || len(warnings) != 0 {
		t.Fatalf("got %v, %v", errs, warnings)
	}
	errs, warnings = ValidateStatus(v, nil, nil, map[string]any{"status": int64(1)}, map[string]any{})
	if len(errs) != 0 || len(warnings) != 0 {
		t.Fatalf("got %v, %v", errs, warnings)
	}
}
