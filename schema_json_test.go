package crdschema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// roundTrip decodes in, encodes it again and checks that the JSON value is
// unchanged.
func roundTrip(t *testing.T, in string) *JSONSchemaProps {
	t.Helper()
	var s JSONSchemaProps
	if err := json.Unmarshal([]byte(in), &s); err != nil {
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

func TestSchemaExplicitNull(t *testing.T) {
	s := roundTrip(t, `{"type":"string","nullable":true,"default":null,"example":null,"enum":[null,"a"]}`)
	if s.Default == nil || s.Default.Value != nil {
		t.Errorf("explicit null default: got %#v, want &JSON{nil}", s.Default)
	}
	if s.Example == nil || s.Example.Value != nil {
		t.Errorf("explicit null example: got %#v, want &JSON{nil}", s.Example)
	}
	if len(s.Enum) != 2 || s.Enum[0].Value != nil || s.Enum[1].Value != "a" {
		t.Errorf("enum = %#v", s.Enum)
	}
	absent := roundTrip(t, `{"type":"string","description":"null"}`)
	if absent.Default != nil || absent.Example != nil {
		t.Errorf("absent default/example decoded as %#v / %#v", absent.Default, absent.Example)
	}
	// A null nested deeper is not the node's own default.
	nested := roundTrip(t, `{"properties":{"a":{"default":null}}}`)
	if nested.Default != nil {
		t.Errorf("nested null became the parent's default")
	}
	if d := nested.Properties["a"].Default; d == nil || d.Value != nil {
		t.Errorf("nested explicit null lost: %#v", d)
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
	if err := json.Unmarshal([]byte(`{"additionalProperties":"yes"}`), &bad); err == nil || !strings.Contains(err.Error(), "boolean or JSON schema expected") {
		t.Errorf("additionalProperties string: err = %v", err)
	}
}

func TestSchemaNumbers(t *testing.T) {
	var s JSONSchemaProps
	if err := json.Unmarshal([]byte(`{"default":{"i":1,"f":1.0,"big":18446744073709551616,"e":1e2},"enum":[1,1.5]}`), &s); err != nil {
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
	if err := json.Unmarshal([]byte(`{"Type":"string","properties":{"a":{"TYPE":"x"}}}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "" || s.Properties["a"].Type != "" {
		t.Errorf("field names matched case-insensitively: %q %q", s.Type, s.Properties["a"].Type)
	}
}

func TestCRDYAMLRoundTrip(t *testing.T) {
	in := []byte(crontabYAML)
	crd, unknown, err := UnmarshalCRD(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) != 0 {
		t.Errorf("unknown fields %v", unknown)
	}
	out, err := yaml.Marshal(crd)
	if err != nil {
		t.Fatal(err)
	}
	crd2, _, err := UnmarshalCRD(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(crd, crd2) {
		t.Errorf("YAML round trip changed the CRD:\n%s", out)
	}
	d := crd2.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["cronSpec"].Default
	if d == nil || d.Value != "* * * * */5" {
		t.Errorf("default lost: %#v", d)
	}
	n := crd2.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["note"].Default
	if n == nil || n.Value != nil {
		t.Errorf("explicit null default lost in YAML: %#v", n)
	}
}

const crontabYAML = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                cronSpec:
                  type: string
                  default: "* * * * */5"
                image:
                  type: string
                note:
                  type: string
                  nullable: true
                  default: null
                replicas:
                  type: integer
                  minimum: 1
                  maximum: 10
      subresources:
        status: {}
        scale:
          specReplicasPath: .spec.replicas
          statusReplicasPath: .status.replicas
      additionalPrinterColumns:
      - name: Spec
        type: string
        jsonPath: .spec.cronSpec
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
`

func TestSchemaDecodeErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":5}`:                                "cannot unmarshal number into Go struct field JSONSchemaProps.type of type string",
		`{"properties":{"a":{"maxLength":"x"}}}`:    "cannot unmarshal string into Go struct field JSONSchemaProps.maxLength of type int64",
		`{"maxItems":1.5}`:                          "cannot unmarshal number into Go struct field JSONSchemaProps.maxItems of type int64",
		`{"required":["a",1]}`:                      "cannot unmarshal number into Go struct field JSONSchemaProps.required of type string",
		`{"x-kubernetes-validations":[{"rule":1}]}`: "JSONSchemaProps.rule of type string",
		`{"additionalProperties":"yes"}`:            "boolean or JSON schema expected",
		`{"allOf":{}}`:                              "cannot unmarshal object into Go struct field JSONSchemaProps.allOf",
		`[]`:                                        "cannot unmarshal array into Go value of type crdschema.JSONSchemaProps",
	} {
		var s JSONSchemaProps
		err := json.Unmarshal([]byte(in), &s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Unmarshal(%s): err = %v, want it to contain %q", in, err, want)
		}
	}
	// null leaves a field unset; items of another type are ignored, as the
	// API server does.
	var s JSONSchemaProps
	if err := json.Unmarshal([]byte(`{"type":null,"properties":null,"items":true,"maxLength":null}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "" || s.Properties != nil || s.Items == nil || s.Items.Schema != nil || s.Items.JSONSchemas != nil || s.MaxLength != nil {
		t.Errorf("got %+v", s)
	}
}

func BenchmarkUnmarshalCRD(b *testing.B) {
	// A schema nested 20 levels deep with 10 properties per level, as large
	// real CRDs are: decoding must not scan the bytes once per level.
	var build func(depth int) map[string]any
	build = func(depth int) map[string]any {
		props := map[string]any{}
		for i := 0; i < 10; i++ {
			props[fmt.Sprintf("p%d", i)] = map[string]any{"type": "string", "maxLength": 10, "description": "a field"}
		}
		if depth > 0 {
			props["next"] = build(depth - 1)
		}
		return map[string]any{"type": "object", "properties": props}
	}
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "as.example.com"},
		"spec": map[string]any{"group": "example.com", "scope": "Cluster",
			"names":    map[string]any{"plural": "as", "kind": "A"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true, "schema": map[string]any{"openAPIV3Schema": build(20)}}}},
	}
	data, err := json.Marshal(crd)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := UnmarshalCRD(data); err != nil {
			b.Fatal(err)
		}
	}
}
