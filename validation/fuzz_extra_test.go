package validation_test

import (
	"encoding/json"
	"fmt"
	"github.com/crdschema/crdschema/internal/objectcheck"
	"github.com/crdschema/crdschema/ratchet"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// FuzzNewValidator compiles random schemas and validates random objects
// with them: New accepts every structural schema, and Validate,
// ValidateUpdate, ValidateListSetsAndMaps and ValidateEmbeddedMeta never
// panic, give the same errors twice and leave the object alone.
func FuzzNewValidator(f *testing.F) {
	schemas := []string{
		richSchema,
		`{"type":"object","properties":{"a":{"type":"string","pattern":"(","format":"nope"}}}`,
		`{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string","maxLength":2}]}}}`,
		`{"type":"array","items":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object"}}}}`,
		`{"type":"number","enum":[1,1.5,null],"nullable":true,"multipleOf":0,"maximum":-1,"exclusiveMaximum":true}`,
	}
	objects := []string{`{}`, `{"a":"x"}`, `[{"apiVersion":"v1","kind":"K","metadata":{"name":"A"}}]`, `1.5`, `null`,
		`{"i":9223372036854775807,"f":1e308,"set":[1,1],"mlist":[{"k":"a"},{"k":"a"}],"map":{"a":-1},"j":{"a":7}}`}
	for _, s := range schemas {
		for _, o := range objects {
			f.Add([]byte(s), []byte(o))
		}
	}
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON []byte) {
		var p crdschema.JSONSchemaProps
		if json.Unmarshal(schemaJSON, &p) != nil {
			return
		}
		s, err := structural.New(&p)
		if err != nil {
			return
		}
		obj, err := jsonscan.Decode(objJSON)
		if err != nil {
			return
		}
		v, err := validation.New(s)
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		before := fmt.Sprint(obj)
		first := fmt.Sprint(keys(v.Validate(crdschema.NewPath("x"), obj)))
		if second := fmt.Sprint(keys(v.Validate(crdschema.NewPath("x"), obj))); second != first {
			t.Fatalf("not deterministic:\n%s\n%s", first, second)
		}
		v.ValidateUpdate(nil, obj, ratchet.Correlate(obj, obj, s))
		if m, ok := obj.(map[string]any); ok {
			objectcheck.ListSetsAndMaps(nil, m, s)
		}
		objectcheck.EmbeddedMeta(nil, obj, s, true)
		if fmt.Sprint(obj) != before {
			t.Fatal("the object was modified")
		}
	})
}
