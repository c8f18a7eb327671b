package structural

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/apiextensions"
)

// FuzzNewValidate decodes a schema and runs every entry point on it. None
// may panic, and the invariants between them must hold.
func FuzzNewValidate(f *testing.F) {
	for _, c := range loadCases(f) {
		b, err := json.Marshal(&c.Schema)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, ".spec.a")
	}
	if b, err := os.ReadFile("testdata/gateway.json"); err == nil {
		f.Add(b, ".spec.listeners")
	}
	f.Add([]byte(`{"type":"object","x-kubernetes-validations":[{"rule":"x","fieldPath":".a['b']"}],"properties":{"a":{"type":"object","additionalProperties":true}}}`), ".a.b.c")
	f.Fuzz(func(t *testing.T, data []byte, fieldPath string) {
		var p crdschema.JSONSchemaProps
		if err := json.Unmarshal(data, &p); err != nil {
			return
		}
		before, err := json.Marshal(&p)
		if err != nil {
			return
		}
		ValidateProps(rootPath, &p, Options{})
		if _, err := json.Marshal(apiextensions.Schema(&p)); err != nil {
			t.Fatalf("SchemaBadValue does not marshal: %v", err)
		}
		s, err := New(&p)
		if after, _ := json.Marshal(&p); string(after) != string(before) {
			t.Fatal("input modified")
		}
		if err != nil {
			return
		}
		errs := Validate(rootPath, s, Options{})
		for i := 1; i < len(errs); i++ {
			if errs[i-1].Error() > errs[i].Error() {
				t.Fatal("errors not sorted")
			}
		}
		Validate(rootPath, s, Options{AllowNestedAdditionalProperties: true, AllowNestedXValidations: true, AllowValidationPropertiesWithAdditionalProperties: true})
		s.FieldPath(fieldPath, true)
		s.FieldPath(fieldPath, false)
		s2, err := New(s.ToJSONSchemaProps())
		if err != nil {
			t.Fatalf("New(ToJSONSchemaProps()): %v", err)
		}
		if a, b := mustJSON(t, s.ToJSONSchemaProps()), mustJSON(t, s2.ToJSONSchemaProps()); a != b {
			t.Fatalf("round trip changed the schema:\n%s\n%s", a, b)
		}
		s.Unfold()
	})
}
