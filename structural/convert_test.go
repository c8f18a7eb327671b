package structural

import (
	"reflect"
	"testing"
)

func TestNewErrors(t *testing.T) {
	tests := []struct {
		schema string
		want   string
	}{
		{`{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`, "OpenAPIV3Schema 'items' must be a schema, but is an array"},
		{`{"type":"object","allOf":[{"items":[{}]}]}`, "OpenAPIV3Schema 'items' must be a schema, but is an array"},
		{`{"type":"object","id":"x"}`, "OpenAPIV3Schema 'id' is not supported"},
		{`{"type":"object","$schema":"x"}`, "OpenAPIV3Schema 'schema' is not supported"},
		{`{"type":"object","$ref":"#/x"}`, "OpenAPIV3Schema '$ref' is not supported"},
		{`{"type":"object","patternProperties":{"a":{}}}`, "OpenAPIV3Schema 'patternProperties' is not supported"},
		{`{"type":"object","dependencies":{"a":["b"]}}`, "OpenAPIV3Schema 'dependencies' is not supported"},
		{`{"type":"object","additionalItems":false}`, "OpenAPIV3Schema 'additionalItems' is not supported"},
		{`{"type":"object","definitions":{"a":{}}}`, "OpenAPIV3Schema 'definitions' is not supported"},
		{`{"type":"object","properties":{"a":{"type":"object","x-kubernetes-preserve-unknown-fields":false}}}`, "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"},
		{`{"type":"object","not":{"additionalProperties":{"id":"x"}}}`, "OpenAPIV3Schema 'id' is not supported"},
		// Unsupported keywords are reported before anything else of the node.
		{`{"type":"object","id":"x","x-kubernetes-preserve-unknown-fields":false,"items":[{}]}`, "OpenAPIV3Schema 'id' is not supported"},
		// The junctors are converted before the node's items.
		{`{"type":"object","items":[{}],"anyOf":[{"$ref":"#/y"}]}`, "OpenAPIV3Schema '$ref' is not supported"},
		// Of several properties with errors, the first by name counts, at
		// every level and under junctors.
		{`{"type":"object","properties":{"d":{"id":"x"},"b":{"$ref":"#/b"},"c":{"definitions":{"a":{}}},"e":{"items":[{}]},"a":{"properties":{"z":{"id":"z"},"y":{"additionalItems":true}}}}}`, "OpenAPIV3Schema 'additionalItems' is not supported"},
		{`{"type":"object","not":{"properties":{"d":{"id":"x"},"b":{"$ref":"#/b"},"c":{"definitions":{"a":{}}}}}}`, "OpenAPIV3Schema '$ref' is not supported"},
	}
	for _, tt := range tests {
		// Map order changes from run to run: the same error every time.
		for range 20 {
			s, err := New(props(t, tt.schema))
			if err == nil || err.Error() != tt.want {
				t.Errorf("New(%s) = %v, %v; want error %q", tt.schema, s, err, tt.want)
				break
			}
		}
	}
}

func TestNewAcceptsEmptyForms(t *testing.T) {
	// An empty $ref, an empty dependencies map and an empty items list
	// convert: ValidateProps reports the first two.
	s := mustNew(t, `{"type":"object","$ref":"","dependencies":{},"properties":{"a":{"type":"array","items":[]}}}`)
	if s.Properties["a"].Items != nil {
		t.Errorf("items: [] converted to %+v, want nil", s.Properties["a"].Items)
	}
}

func TestNewNil(t *testing.T) {
	s, err := New(nil)
	if s != nil || err != nil {
		t.Errorf("New(nil) = %v, %v; want nil, nil", s, err)
	}
}

func TestNewShape(t *testing.T) {
	s := mustNew(t, `{"type":"object","default":null,"example":null,"properties":{
		"a":{"type":"object","properties":{}},
		"m":{"type":"object","additionalProperties":false},
		"n":{"type":"object","additionalProperties":true},
		"o":{"type":"object","additionalProperties":{"type":"string"}},
		"e":{"type":"string","enum":[]}},
		"allOf":[{"properties":{},"additionalProperties":true},{"additionalProperties":false,"required":[]}]}`)
	if s.Default != nil || s.Example != nil {
		t.Errorf("null default/example kept: %v %v", s.Default, s.Example)
	}
	if s.Properties["a"].Properties != nil {
		t.Error("empty properties not dropped")
	}
	if s.Properties["e"].ValueValidation != nil {
		t.Errorf("empty enum kept: %+v", s.Properties["e"].ValueValidation)
	}
	if ap := s.Properties["m"].AdditionalProperties; ap == nil || ap.Bool || ap.Schema != nil {
		t.Errorf("additionalProperties false = %+v", ap)
	}
	if ap := s.Properties["n"].AdditionalProperties; ap == nil || !ap.Bool || ap.Schema != nil {
		t.Errorf("additionalProperties true = %+v", ap)
	}
	if ap := s.Properties["o"].AdditionalProperties; ap == nil || !ap.Bool || ap.Schema == nil || ap.Schema.Type != "string" {
		t.Errorf("additionalProperties schema = %+v", ap)
	}
	all := s.ValueValidation.AllOf
	if all[0].Properties == nil || len(all[0].Properties) != 0 {
		t.Error("nested empty properties not kept")
	}
	if all[0].AdditionalProperties == nil || all[1].AdditionalProperties != nil {
		t.Errorf("nested additionalProperties true/false = %v/%v, want empty/nil", all[0].AdditionalProperties, all[1].AdditionalProperties)
	}
	if all[1].Required == nil {
		t.Error("nested empty required not kept")
	}
}

func TestNewDoesNotAlias(t *testing.T) {
	p := props(t, `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"default":{"x":[1,{"y":2}]},"enum":[{"k":"v"}],"required":["k"],"maximum":3,"x-kubernetes-validations":[{"rule":"true","reason":"FieldValueForbidden","optionalOldSelf":true}]}}},"allOf":[{"properties":{"a":{"maxItems":4}}}]}`)
	before := mustJSON(t, p)
	s, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	// Mutate everything mutable in the result; the input must not change.
	item := s.Properties["a"].Items
	item.Default.Value.(map[string]any)["x"].([]any)[1].(map[string]any)["y"] = 3
	item.ValueValidation.Enum[0].Value.(map[string]any)["k"] = "w"
	item.ValueValidation.Required[0] = "z"
	*item.ValueValidation.Maximum = 9
	item.XListMapKeys[0] = "z"
	*item.XListType = "set"
	*item.XValidations[0].Reason = "x"
	*item.XValidations[0].OptionalOldSelf = false
	*s.ValueValidation.AllOf[0].Properties["a"].MaxItems = 0
	if after := mustJSON(t, p); after != before {
		t.Errorf("input changed through the result:\nbefore %s\nafter  %s", before, after)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, c := range loadCases(t) {
		s, err := New(&c.Schema)
		if err != nil {
			continue
		}
		if !reflect.DeepEqual(s, s.DeepCopy()) {
			t.Errorf("%s: DeepCopy differs", c.Name)
		}
		// ToJSONSchemaProps leaves out empty lists that New keeps apart
		// from absent ones; after that, the two are inverses.
		s2, err := New(s.ToJSONSchemaProps())
		if err != nil {
			t.Errorf("%s: New(ToJSONSchemaProps()): %v", c.Name, err)
			continue
		}
		if a, b := mustJSON(t, s.ToJSONSchemaProps()), mustJSON(t, s2.ToJSONSchemaProps()); a != b {
			t.Errorf("%s: round trip changed the schema:\n%s\n%s", c.Name, a, b)
		}
		s3, err := New(s2.ToJSONSchemaProps())
		if err != nil || !reflect.DeepEqual(s2, s3) {
			t.Errorf("%s: second round trip changed the schema (%v)", c.Name, err)
		}
	}
}

func TestToJSONSchemaProps(t *testing.T) {
	s := mustNew(t, `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},"b":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set","x-kubernetes-list-map-keys":[]},"c":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-validations":[]}}}`)
	got := mustJSON(t, s.ToJSONSchemaProps())
	want := `{"type":"object","properties":{"a":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true},"b":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"},"c":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`
	if got != want {
		t.Errorf("ToJSONSchemaProps:\ngot  %s\nwant %s", got, want)
	}
	if (*Schema)(nil).ToJSONSchemaProps() != nil {
		t.Error("nil schema did not give nil")
	}
}
