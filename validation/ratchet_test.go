package validation

import (
	"testing"

	"github.com/crdschema/crdschema/ratchet"
)

func TestValidateUpdateRatcheting(t *testing.T) {
	schema := `{"type":"object","properties":{
		"kind":{"type":"string","maxLength":1},
		"spec":{"type":"object","properties":{
			"a":{"type":"string","maxLength":1},
			"b":{"type":"string","maxLength":1},
			"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
				"items":{"type":"object","required":["k"],"properties":{"k":{"type":"integer"},"v":{"type":"integer","minimum":5}}}},
			"any":{"type":"object","properties":{"x":{"type":"string"}},"anyOf":[{"properties":{"x":{"maxLength":1}}},{"required":["y"]}]}
		}}}}`
	v := mustValidator(t, schema)
	s := mustStructural(t, []byte(schema))
	tests := []struct {
		name          string
		new, old      string
		errs, warning []string
	}{
		{"unchanged field ratchets",
			`{"spec":{"a":"xx","b":"yy"}}`, `{"spec":{"a":"xx","b":"y"}}`,
			[]string{"spec.b: Too long: may not be more than 1 byte"},
			[]string{"spec.a: Too long: may not be more than 1 byte"}},
		{"new field does not ratchet",
			`{"spec":{"a":"xx"}}`, `{"spec":{}}`,
			[]string{"spec.a: Too long: may not be more than 1 byte"}, nil},
		{"map list items by key",
			`{"spec":{"l":[{"k":1,"v":1},{"k":2,"v":2}]}}`, `{"spec":{"l":[{"k":2,"v":3},{"k":1,"v":1}]}}`,
			[]string{"spec.l[1].v: Invalid value: 2: spec.l[1].v in body should be greater than or equal to 5"},
			[]string{"spec.l[0].v: Invalid value: 1: spec.l[0].v in body should be greater than or equal to 5"}},
		{"root kind never ratchets on its own",
			`{"kind":"Kind","spec":{"a":"y"}}`, `{"kind":"Kind","spec":{"a":"x"}}`,
			[]string{"kind: Too long: may not be more than 1 byte"}, nil},
		{"unchanged root ratchets everything",
			`{"kind":"Kind"}`, `{"kind":"Kind"}`,
			nil, []string{"kind: Too long: may not be more than 1 byte"}},
		// Junctor branches are validated without ratcheting (as upstream):
		// the anyOf fails, and the unchanged node that holds it turns both
		// its failures into warnings.
		{"junctor branches ratchet with their node",
			`{"spec":{"any":{"x":"long"},"a":"z"}}`, `{"spec":{"any":{"x":"long"}}}`,
			nil, []string{`<nil>: Invalid value: "": "spec.any" must validate at least one schema (anyOf)`, "spec.any.x: Too long: may not be more than 1 byte"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newObj, oldObj := mustObject(t, tt.new), mustObject(t, tt.old)
			r := v.ValidateUpdate(nil, newObj, ratchet.Correlate(newObj, oldObj, s))
			errs, warnings := r.Errors, r.Warnings
			checkErrors(t, errs, tt.errs)
			checkErrors(t, warnings, tt.warning)
		})
	}
	// Without a correlation it is Validate.
	obj := mustObject(t, `{"spec":{"a":"xx"}}`)
	r := v.ValidateUpdate(nil, obj, nil)
	errs, warnings := r.Errors, r.Warnings
	checkErrors(t, errs, errorTexts(v.Validate(nil, obj)))
	if warnings != nil {
		t.Errorf("warnings without correlation: %v", warnings)
	}
}

// TestValidateFoldsObjectChecks: one Validate reports the OpenAPI errors,
// then the embedded resources', then the list sets and maps'; an update
// reports the embedded resources' always and the list errors only when the
// old object has none.
func TestValidateFoldsObjectChecks(t *testing.T) {
	schema := `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"a":{"type":"string","maxLength":1},
		"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"s":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}}}`
	v := mustValidator(t, schema)
	s := mustStructural(t, []byte(schema))
	obj := mustObject(t, `{"spec":{"a":"xx","e":{"kind":"K"},"s":["x","x"]}}`)
	want := []string{
		"spec.a: Too long: may not be more than 1 byte",
		"spec.e.apiVersion: Required value",
		`spec.s[1]: Duplicate value: "x"`,
	}
	checkOrder := func(what string, got []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %q, want %q", what, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: %q, want %q", what, got, want)
			}
		}
	}
	var got []string
	for _, e := range v.Validate(nil, obj) {
		got = append(got, e.Error())
	}
	checkOrder("Validate", got)

	// The old object has the same duplicate: the list error is not
	// reported, the embedded one is (it never ratchets), spec.a ratchets.
	old := mustObject(t, `{"spec":{"a":"xx","e":{"kind":"K"},"s":["x","x"]}}`)
	r := v.ValidateUpdate(nil, obj, ratchet.Correlate(obj, old, s))
	checkErrors(t, r.Errors, []string{"spec.e.apiVersion: Required value"})
	checkErrors(t, r.Warnings, []string{"spec.a: Too long: may not be more than 1 byte"})
	// The old object has no duplicate: the list error is reported.
	old = mustObject(t, `{"spec":{"a":"xx","e":{"kind":"K"},"s":["x"]}}`)
	r = v.ValidateUpdate(nil, obj, ratchet.Correlate(obj, old, s))
	checkErrors(t, r.Errors, []string{"spec.e.apiVersion: Required value", `spec.s[1]: Duplicate value: "x"`})
}
