package crdschema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	kjson "sigs.k8s.io/json"
)

// roundTrip decodes in, encodes it again and checks that the JSON value is
// unchanged.
func roundTrip(t *testing.T, in string) *JSONSchemaProps {
	t.Helper()
	var s JSONSchemaProps
	if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(in), &s); err != nil {
		t.Fatalf("Unmarshal(%s): %v", in, err)
	}
	out, err := json.Marshal(&s)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	var a, b any
	if err := json.Unmarshal([]byte(in), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("round trip changed the schema:\n in: %s\nout: %s", in, out)
	}
	return &s
}

func TestSchemaRoundTrip(t *testing.T) {
	cases := []string{
		`{}`,
		`{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer","minimum":1,"maximum":10,"exclusiveMaximum":true,"multipleOf":2}}}}}`,
		`{"type":"string","maxLength":3,"minLength":1,"pattern":"^a","format":"date-time","enum":["a","b",null],"default":"a","example":"b","description":"d","title":"t","nullable":true}`,
		`{"type":"array","items":{"type":"string"},"maxItems":3,"minItems":0,"uniqueItems":true,"x-kubernetes-list-type":"set"}`,
		`{"type":"array","items":[{"type":"string"},{"type":"integer"}]}`,
		`{"type":"array","items":[]}`,
		`{"type":"object","additionalProperties":false}`,
		`{"type":"object","additionalProperties":true}`,
		`{"type":"object","additionalProperties":{"type":"string"},"maxProperties":4,"minProperties":1,"x-kubernetes-map-type":"granular"}`,
		`{"type":"array","items":{"type":"string"},"additionalItems":false}`,
		`{"dependencies":{"a":["b","c"],"d":{"required":["e"]}}}`,
		`{"id":"x","$schema":"http://json-schema.org/draft-04/schema#","$ref":"#/definitions/a","definitions":{"a":{"type":"string"}},"patternProperties":{"^a":{"type":"string"}}}`,
		`{"allOf":[{"required":["a"]}],"anyOf":[{"type":"integer"},{"type":"string"}],"oneOf":[{"maxLength":1}],"not":{"pattern":"x"}}`,
		`{"x-kubernetes-int-or-string":true,"x-kubernetes-preserve-unknown-fields":false,"x-kubernetes-embedded-resource":true}`,
		`{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name","port"],"items":{"type":"object"}}`,
		`{"x-kubernetes-validations":[{"rule":"self.a > 0","message":"m","messageExpression":"'x'","reason":"FieldValueForbidden","fieldPath":".a","optionalOldSelf":true}]}`,
		`{"externalDocs":{"description":"d","url":"https://example.com"}}`,
		`{"default":{"a":[1,2.5,"x",true,null,{"b":{}}]}}`,
		`{"default":9223372036854775807,"example":1e300}`,
	}
	for _, c := range cases {
		roundTrip(t, c)
	}
}

// TestSchemaExplicitNull: default: null and example: null decode as
// absent, as the API server decodes them; null enum members stay.
func TestSchemaExplicitNull(t *testing.T) {
	var s JSONSchemaProps
	if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(`{"type":"string","nullable":true,"default":null,"example":null,"enum":[null,"a"],"properties":{"a":{"default":null}}}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Default != nil || s.Example != nil || s.Properties["a"].Default != nil {
		t.Errorf("null default or example: got %#v, %#v, %#v, want absent", s.Default, s.Example, s.Properties["a"].Default)
	}
	if len(s.Enum) != 2 || s.Enum[0].Value != nil || s.Enum[1].Value != "a" {
		t.Errorf("enum = %#v", s.Enum)
	}
}

func TestSchemaOrForms(t *testing.T) {
	s := roundTrip(t, `{"items":{"type":"string"},"additionalProperties":{"type":"integer"},"additionalItems":true,"dependencies":{"a":["b"],"c":{"type":"object"}}}`)
	if s.Items.Schema == nil || s.Items.Schema.Type != "string" || s.Items.JSONSchemas != nil {
		t.Errorf("items = %#v", s.Items)
	}
	if !s.AdditionalProperties.Allows || s.AdditionalProperties.Schema.Type != "integer" {
		t.Errorf("additionalProperties = %#v", s.AdditionalProperties)
	}
	if !s.AdditionalItems.Allows || s.AdditionalItems.Schema != nil {
		t.Errorf("additionalItems = %#v", s.AdditionalItems)
	}
	if got := s.Dependencies["a"].Property; !reflect.DeepEqual(got, []string{"b"}) {
		t.Errorf("dependencies[a] = %#v", got)
	}
	if s.Dependencies["c"].Schema == nil || s.Dependencies["c"].Schema.Type != "object" {
		t.Errorf("dependencies[c] = %#v", s.Dependencies["c"])
	}
	arr := roundTrip(t, `{"items":[{"type":"string"}],"additionalProperties":false}`)
	if arr.Items.Schema != nil || len(arr.Items.JSONSchemas) != 1 {
		t.Errorf("items array = %#v", arr.Items)
	}
	if arr.AdditionalProperties.Allows || arr.AdditionalProperties.Schema != nil {
		t.Errorf("additionalProperties false = %#v", arr.AdditionalProperties)
	}
	var bad JSONSchemaProps
	if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(`{"additionalProperties":"yes"}`), &bad); err == nil || !strings.Contains(err.Error(), "boolean or JSON schema expected") {
		t.Errorf("additionalProperties string: err = %v", err)
	}
}

func TestSchemaNumbers(t *testing.T) {
	var s JSONSchemaProps
	if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(`{"default":{"i":1,"f":1.0,"big":18446744073709551616,"e":1e2},"enum":[1,1.5]}`), &s); err != nil {
		t.Fatal(err)
	}
	d := s.Default.Value.(map[string]any)
	for k, want := range map[string]any{"i": int64(1), "f": float64(1), "big": float64(18446744073709551616), "e": float64(100)} {
		if !reflect.DeepEqual(d[k], want) {
			t.Errorf("default[%s] = %#v (%T), want %#v (%T)", k, d[k], d[k], want, want)
		}
	}
	if s.Enum[0].Value != int64(1) || s.Enum[1].Value != 1.5 {
		t.Errorf("enum = %#v", s.Enum)
	}
}

func TestSchemaCaseSensitive(t *testing.T) {
	var s JSONSchemaProps
	if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(`{"Type":"string","properties":{"a":{"TYPE":"x"}}}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "" || s.Properties["a"].Type != "" {
		t.Errorf("field names matched case-insensitively: %q %q", s.Type, s.Properties["a"].Type)
	}
}

func TestSchemaDecodeErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":5}`:                                "cannot unmarshal number into Go struct field JSONSchemaProps.type of type string",
		`{"properties":{"a":{"maxLength":"x"}}}`:    "cannot unmarshal string into Go struct field JSONSchemaProps.properties.maxLength of type int64",
		`{"maxItems":1.5}`:                          "cannot unmarshal number 1.5 into Go struct field JSONSchemaProps.maxItems of type int64",
		`{"required":["a",1]}`:                      "cannot unmarshal number into Go struct field JSONSchemaProps.required of type string",
		`{"x-kubernetes-validations":[{"rule":1}]}`: "Go struct field ValidationRule.x-kubernetes-validations.rule of type string",
		`{"additionalProperties":"yes"}`:            "boolean or JSON schema expected",
		`{"allOf":{}}`:                              "cannot unmarshal object into Go struct field JSONSchemaProps.allOf",
		`[]`:                                        "cannot unmarshal array into Go value of type crdschema.JSONSchemaProps",
	} {
		var s JSONSchemaProps
		err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(in), &s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Unmarshal(%s): err = %v, want it to contain %q", in, err, want)
		}
	}
	// null leaves a field unset; items of another type are ignored, as the
	// API server does.
	var s JSONSchemaProps
	if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(`{"type":null,"properties":null,"items":true,"maxLength":null}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "" || s.Properties != nil || s.Items == nil || s.Items.Schema != nil || s.Items.JSONSchemas != nil || s.MaxLength != nil {
		t.Errorf("got %+v", s)
	}
}
