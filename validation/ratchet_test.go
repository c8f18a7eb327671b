package validation

import (
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// testCorrelation correlates object properties present in both values and,
// unlike upstream's, list items by index, to exercise Index.
type testCorrelation struct{ new, old any }

func (c testCorrelation) Key(name string) Correlation {
	n, ok1 := c.new.(map[string]any)
	o, ok2 := c.old.(map[string]any)
	if !ok1 || !ok2 {
		return nil
	}
	nv, ok1 := n[name]
	ov, ok2 := o[name]
	if !ok1 || !ok2 {
		return nil
	}
	return testCorrelation{nv, ov}
}

func (c testCorrelation) Index(i int) Correlation {
	n, ok1 := c.new.([]any)
	o, ok2 := c.old.([]any)
	if !ok1 || !ok2 || i >= len(n) || i >= len(o) {
		return nil
	}
	return testCorrelation{n[i], o[i]}
}

func (c testCorrelation) Unchanged() bool { return jsonvalue.Equal(c.new, c.old) }

func TestValidateUpdateRatcheting(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{
		"kind":{"type":"string","maxLength":1},
		"spec":{"type":"object","properties":{
			"a":{"type":"string","maxLength":1},
			"b":{"type":"string","maxLength":1},
			"l":{"type":"array","items":{"type":"integer","minimum":5}},
			"any":{"type":"object","properties":{"x":{"type":"string"}},"anyOf":[{"properties":{"x":{"maxLength":1}}},{"required":["y"]}]}
		}}}}`)
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
		{"list items by index",
			`{"spec":{"l":[1,2]}}`, `{"spec":{"l":[1,3]}}`,
			[]string{"spec.l[1]: Invalid value: 2: spec.l[1] in body should be greater than or equal to 5"},
			[]string{"spec.l[0]: Invalid value: 1: spec.l[0] in body should be greater than or equal to 5"}},
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
			errs, warnings := v.ValidateUpdate(nil, newObj, testCorrelation{newObj, oldObj})
			checkErrors(t, errs, tt.errs)
			checkErrors(t, warnings, tt.warning)
		})
	}
	// Without a correlation it is Validate.
	obj := mustObject(t, `{"spec":{"a":"xx"}}`)
	errs, warnings := v.ValidateUpdate(nil, obj, nil)
	checkErrors(t, errs, errorTexts(v.Validate(nil, obj)))
	if warnings != nil {
		t.Errorf("warnings without correlation: %v", warnings)
	}
}
