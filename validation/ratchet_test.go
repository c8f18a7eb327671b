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
