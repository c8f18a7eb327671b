package jsonschema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/manifest"
)

const widgets = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
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
            required: [size, mode]
            x-kubernetes-validations:
            - rule: self.size > 0
              message: size must be positive
            properties:
              size: {type: integer, maximum: 10, exclusiveMaximum: true}
              mode: {type: string, enum: [a, b], default: a}
              port: {x-kubernetes-int-or-string: true}
              note: {type: string, nullable: true, format: uri}
              tags:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              address:
                type: object
                properties:
                  type: {type: string, default: IP}
                  value: {type: string}
                oneOf:
                - properties:
                    type: {enum: [IP]}
                - properties:
                    type: {not: {enum: [IP]}}
`

func widgetSchema(t *testing.T, opts ...Option) schema {
	t.Helper()
	def, _, err := manifest.UnmarshalCRD([]byte(widgets))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Version(def, "v1", opts...)
	if err != nil {
		t.Fatal(err)
	}
	// through JSON, as a validator reads it
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var v schema
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// at follows a path of keys.
func at(t *testing.T, s any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := s.(map[string]any)
		if !ok {
			t.Fatalf("no %s in %v", k, s)
		}
		s = m[k]
	}
	return s
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestVersion(t *testing.T) {
	s := widgetSchema(t)
	spec := []string{"properties", "spec"}
	prop := func(name string, keys ...string) string {
		return js(at(t, s, append(append(append([]string(nil), spec...), "properties", name), keys...)...))
	}
	tests := []struct{ got, want string }{
		{js(s["$schema"]), `"http://json-schema.org/draft-07/schema#"`},
		{js(at(t, s, "properties", "kind", "enum")), `["Widget"]`},
		{js(at(t, s, "properties", "apiVersion", "enum")), `["example.com/v1"]`},
		// mode has a default: not required, the API server sets it first
		{js(at(t, s, append(spec, "required")...)), `["size"]`},
		{prop("size", "exclusiveMaximum"), `10`},
		{prop("size", "maximum"), `null`},
		// optional properties may be null: the API server drops the null
		{prop("size", "type"), `"integer"`},
		{prop("mode", "type"), `["string","null"]`},
		{prop("mode", "enum"), `["a","b",null]`},
		{prop("port", "type"), `["integer","string","null"]`},
		{prop("note", "type"), `["string","null"]`},
		{prop("note", "format"), `null`},
		{prop("tags", "uniqueItems"), `true`},
		{prop("tags", "items", "type"), `"string"`},
		{prop("template", "properties", "kind", "type"), `"string"`},
		{prop("template", "properties", "metadata", "type"), `["object","null"]`},
		{prop("template", "properties", "metadata", "properties", "labels", "additionalProperties", "type"), `["string","null"]`},
		// metadata is ObjectMeta whatever the schema says
		{js(at(t, s, "properties", "metadata", "properties", "creationTimestamp", "type")), `["string","null"]`},
		{js(at(t, s, "properties", "metadata", "additionalProperties")), `null`},
		// the oneOf branch whose condition the default fails requires the property
		{prop("address", "oneOf"), `[{"properties":{"type":{"enum":["IP"]}}},{"properties":{"type":{"not":{"enum":["IP"]}}},"required":["type"]}]`},
		{js(at(t, s, append(spec, "additionalProperties")...)), `null`},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %s, want %s", i, tt.got, tt.want)
		}
	}
	for _, want := range []string{"Format: uri", "checked by the API server"} {
		if !strings.Contains(prop("note", "description"), want) {
			t.Errorf("note's description lacks %q: %s", want, prop("note", "description"))
		}
	}
	if d, _ := at(t, s, append(spec, "description")...).(string); !strings.Contains(d, "self.size > 0 (size must be positive)") {
		t.Errorf("CEL rule not in the description: %s", d)
	}
	if d := prop("ports", "description"); !strings.Contains(d, "unique by name") {
		t.Errorf("map list keys not in the description: %s", d)
	}

	strict := widgetSchema(t, WithStrict())
	if got := js(at(t, strict, append(spec, "additionalProperties")...)); got != "false" {
		t.Errorf("strict: spec's additionalProperties %s", got)
	}
	if got := js(at(t, strict, append(spec, "properties", "template", "additionalProperties")...)); got != "null" {
		t.Errorf("strict: an embedded resource preserving unknown fields forbids them: %s", got)
	}
	// strict metadata: ObjectMeta's fields, no others (the API server
	// reports other fields of metadata as unknown under strict validation)
	for _, path := range [][]string{
		{"properties", "metadata"},
		append(spec, "properties", "template", "properties", "metadata"),
	} {
		if got := js(at(t, strict, append(path, "additionalProperties")...)); got != "false" {
			t.Errorf("strict: %v additionalProperties %s", path, got)
		}
		for _, field := range []string{"name", "namespace", "labels", "annotations", "ownerReferences", "finalizers", "managedFields", "uid", "generation"} {
			if at(t, strict, append(path, "properties", field)...) == nil {
				t.Errorf("strict: %v has no property %s", path, field)
			}
		}
	}
}

func TestVersionErrors(t *testing.T) {
	def, _, err := manifest.UnmarshalCRD([]byte(widgets))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Version(def, "v2"); err == nil || !strings.Contains(err.Error(), `"v2"`) {
		t.Errorf("missing version: %v", err)
	}
}

func TestSatisfies(t *testing.T) {
	tests := []struct {
		s         schema
		v         any
		ok, known bool
	}{
		{schema{"enum": []any{"a"}}, "a", true, true},
		{schema{"enum": []any{"a"}}, "b", false, true},
		{schema{"not": schema{"enum": []any{"a"}}}, "a", false, true},
		{schema{"type": []any{"integer", "null"}}, int64(1), true, true},
		{schema{"type": "integer"}, 1.5, false, true},
		{schema{"pattern": "^x"}, "xy", true, true},
		{schema{"maxLength": int64(1)}, "xy", false, true},
		{schema{"oneOf": []any{schema{"enum": []any{"a"}}, schema{"type": "string"}}}, "a", false, true},
		{schema{"minimum": 1.0}, int64(1), false, false},
	}
	for i, tt := range tests {
		if ok, known := satisfies(tt.s, tt.v); ok != tt.ok || known != tt.known {
			t.Errorf("%d: satisfies = %v, %v; want %v, %v", i, ok, known, tt.ok, tt.known)
		}
	}
}
