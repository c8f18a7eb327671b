package structural

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
)

// rootPath is where single-version CRDs report schema errors.
var rootPath = crdschema.NewPath("spec", "validation", "openAPIV3Schema")

func props(t testing.TB, js string) *crdschema.JSONSchemaProps {
	t.Helper()
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatalf("bad test schema %s: %v", js, err)
	}
	return &p
}

func mustNew(t testing.TB, js string) *Schema {
	t.Helper()
	s, err := New(props(t, js))
	if err != nil {
		t.Fatalf("New(%s): %v", js, err)
	}
	return s
}

func messages(errs crdschema.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

func checkMessages(t *testing.T, got crdschema.ErrorList, want []string) {
	t.Helper()
	g := messages(got)
	if strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\ngot:\n  %s\nwant:\n  %s", strings.Join(g, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestValidate(t *testing.T) {
	const p = "spec.validation.openAPIV3Schema"
	tests := []struct {
		name   string
		schema string
		opts   Options
		want   []string
	}{
		{"valid", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}}}}}`, Options{}, nil},
		{"root type missing", `{"properties":{"a":{"type":"string"}}}`, Options{},
			[]string{p + ".type: Required value: must not be empty at the root"}},
		{"field type missing", `{"type":"object","properties":{"a":{}}}`, Options{},
			[]string{p + ".properties[a].type: Required value: must not be empty for specified object fields"}},
		{"items type missing", `{"type":"object","properties":{"a":{"type":"array","items":{}}}}`, Options{},
			[]string{p + ".properties[a].items.type: Required value: must not be empty for specified array items"}},
		{"array without items", `{"type":"object","properties":{"a":{"type":"array"}}}`, Options{},
			[]string{p + ".properties[a].items: Required value: must be specified"}},
		{"int-or-string and preserve-unknown-fields need no type", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true},"b":{"x-kubernetes-preserve-unknown-fields":true}}}`, Options{}, nil},
		{"root not object", `{"type":"string"}`, Options{},
			[]string{p + `.type: Invalid value: "string": must be object at the root`}},
		{"root additionalProperties", `{"type":"object","additionalProperties":{"type":"string"}}`, Options{},
			[]string{p + ".additionalProperties: Forbidden: must not be used at the root"}},
		{"int-or-string with preserve and embedded", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"x-kubernetes-preserve-unknown-fields":true},"b":{"type":"object","x-kubernetes-int-or-string":true,"x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`, Options{},
			[]string{
				p + ".properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
				p + ".properties[b].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
				p + ".properties[b].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
			}},
		{"embedded resource type", `{"type":"object","properties":{"a":{"type":"string","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},"b":{"x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`, Options{},
			[]string{
				p + `.properties[a].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
				p + ".properties[b].type: Required value: must be object if x-kubernetes-embedded-resource is true",
			}},
		{"embedded resource without properties", `{"type":"object","properties":{"a":{"type":"object","x-kubernetes-embedded-resource":true}}}`, Options{},
			[]string{p + ".properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"}},
		{"embedded resource with additionalProperties", `{"type":"object","properties":{"a":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"additionalProperties":{"type":"string"}}}}`, Options{},
			[]string{p + ".properties[a].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set"}},
		{"kind and apiVersion must be strings", `{"type":"object","properties":{"kind":{"type":"integer"},"apiVersion":{"type":"object"},"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"kind":{"type":"boolean"}}},"f":{"type":"object","properties":{"kind":{"type":"boolean"}}}}}`, Options{},
			[]string{
				p + `.properties[apiVersion].type: Invalid value: "object": must be string`,
				p + `.properties[e].properties[kind].type: Invalid value: "boolean": must be string`,
				p + `.properties[kind].type: Invalid value: "integer": must be string`,
			}},
		{"metadata name and generateName", `{"type":"object","properties":{"metadata":{"type":"object","default":{},"properties":{"name":{"type":"string","maxLength":5},"generateName":{"type":"string"}}}}}`, Options{}, nil},
		{"metadata restricted", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string"},"labels":{"type":"object"}}}}}`, Options{},
			[]string{p + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"}},
		{"metadata with an empty required list", `{"type":"object","properties":{"metadata":{"type":"object","required":[]}}}`, Options{},
			[]string{p + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"}},
		{"metadata with an empty enum", `{"type":"object","properties":{"metadata":{"type":"object","enum":[]}}}`, Options{}, nil},
		{"embedded metadata must be object", `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"string"}}}}}`, Options{},
			[]string{p + `.properties[e].properties[metadata].type: Invalid value: "string": must be object`}},
		{"invalid pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"a(b"}}}`, Options{},
			[]string{p + ".properties[a].pattern: Invalid value: \"a(b\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `a(b`"}},
		{"repeated invalid pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"a(b"},"b":{"type":"string","pattern":"a(b"},"c":{"type":"string","pattern":"^c$","allOf":[{"pattern":"^c$"},{"pattern":"a(b"}]}}}`, Options{},
			[]string{
				p + ".properties[a].pattern: Invalid value: \"a(b\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `a(b`",
				p + ".properties[b].pattern: Invalid value: \"a(b\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `a(b`",
				p + ".properties[c].allOf[1].pattern: Invalid value: \"a(b\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `a(b`",
			}},
		{"junctor shaping keywords", `{"type":"object","properties":{"a":{"type":"string","allOf":[{"type":"string","title":"t","description":"d","default":"x","nullable":true}],"anyOf":[{"x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-embedded-resource":true,"x-kubernetes-int-or-string":true}],"oneOf":[{"x-kubernetes-list-map-keys":["k"],"x-kubernetes-list-type":"map","x-kubernetes-map-type":"atomic"}],"not":{"x-kubernetes-validations":[{"rule":"true"}]}}}}`, Options{},
			[]string{
				p + ".properties[a].allOf[0].default: Forbidden: must be undefined to be structural",
				p + ".properties[a].allOf[0].description: Forbidden: must be empty to be structural",
				p + ".properties[a].allOf[0].nullable: Forbidden: must be false to be structural",
				p + ".properties[a].allOf[0].title: Forbidden: must be empty to be structural",
				p + ".properties[a].allOf[0].type: Forbidden: must be empty to be structural",
				p + ".properties[a].anyOf[0].x-kubernetes-embedded-resource: Forbidden: must be false to be structural",
				p + ".properties[a].anyOf[0].x-kubernetes-int-or-string: Forbidden: must be false to be structural",
				p + ".properties[a].anyOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural",
				p + ".properties[a].not.x-kubernetes-validations: Forbidden: must be empty to be structural",
				p + ".properties[a].oneOf[0].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural",
				p + ".properties[a].oneOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural",
				p + ".properties[a].oneOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural",
			}},
		{"junctor additionalProperties and metadata", `{"type":"object","properties":{"a":{"type":"object","properties":{"metadata":{"type":"object"}},"allOf":[{"additionalProperties":true,"properties":{"metadata":{}}}]}}}`, Options{},
			[]string{
				p + ".properties[a].allOf[0].additionalProperties: Forbidden: must be undefined to be structural",
				p + ".properties[a].allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context",
			}},
		{"junctor additionalProperties allowed by option", `{"type":"object","properties":{"a":{"type":"object","additionalProperties":{"type":"string"},"allOf":[{"additionalProperties":{"minLength":1}}]}}}`,
			Options{AllowNestedAdditionalProperties: true}, nil},
		{"rules allowed in allOf only", `{"type":"object","properties":{"a":{"type":"string","allOf":[{"x-kubernetes-validations":[{"rule":"true"}]}],"anyOf":[{"x-kubernetes-validations":[{"rule":"true"}]}]}}}`,
			Options{AllowNestedXValidations: true},
			[]string{p + ".properties[a].anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"}},
		{"int-or-string anyOf pattern", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`, Options{}, nil},
		{"int-or-string allOf pattern", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]},{"pattern":"^a"}]}}}`, Options{}, nil},
		{"int-or-string pattern swapped", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"string"},{"type":"integer"}]}}}`, Options{},
			[]string{
				p + ".properties[a].anyOf[0].type: Forbidden: must be empty to be structural",
				p + ".properties[a].anyOf[1].type: Forbidden: must be empty to be structural",
			}},
		{"int-or-string pattern with extra keyword", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string","maxLength":3}]}}}`, Options{},
			[]string{
				p + ".properties[a].anyOf[0].type: Forbidden: must be empty to be structural",
				p + ".properties[a].anyOf[1].type: Forbidden: must be empty to be structural",
			}},
		{"completeness", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"array","items":{"type":"object","properties":{"c":{"type":"string"}}},"oneOf":[{"items":{"properties":{"c":{"minLength":1},"d":{"minLength":1}}}}]}},"allOf":[{"properties":{"x":{"minLength":1},"a":{"not":{"items":{}}}}}]}`, Options{},
			[]string{
				p + ".properties[a].items: Required value: because it is defined in " + p + ".allOf[0].properties[a].not.items",
				p + ".properties[x]: Required value: because it is defined in " + p + ".allOf[0].properties[x]",
			}},
		// Like the API server, completeness is only checked from the
		// root's junctors: b's oneOf is not checked.
		{"completeness through additionalProperties", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}},"allOf":[{"properties":{"m":{"properties":{"k":{"minLength":1}}}}}]}`,
			Options{AllowValidationPropertiesWithAdditionalProperties: true}, nil},
		{"completeness without the option", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}},"allOf":[{"properties":{"m":{"properties":{"k":{"minLength":1}}}}}]}`, Options{},
			[]string{p + ".properties[m].properties[k]: Required value: because it is defined in " + p + ".allOf[0].properties[m].properties[k]"}},
		{"completeness of nested additionalProperties", `{"type":"object","properties":{"m":{"type":"object","properties":{"a":{"type":"string"}}}},"allOf":[{"properties":{"m":{"additionalProperties":{"minLength":1}}}}]}`,
			Options{AllowNestedAdditionalProperties: true},
			[]string{p + ".properties[m].additionalProperties: Required value: because it is defined in " + p + ".allOf[0].properties[m].additionalProperties"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkMessages(t, Validate(rootPath, mustNew(t, tt.schema), tt.opts), tt.want)
		})
	}
}

func TestValidateNil(t *testing.T) {
	if errs := Validate(rootPath, nil, Options{}); len(errs) != 0 {
		t.Errorf("Validate(nil) = %v, want no errors", errs)
	}
}

func TestValidateSorted(t *testing.T) {
	s := mustNew(t, `{"properties":{"z":{},"a":{},"m":{"type":"array"}}}`)
	errs := Validate(nil, s, Options{})
	want := []string{
		"properties[a].type: Required value: must not be empty for specified object fields",
		"properties[m].items: Required value: must be specified",
		"properties[z].type: Required value: must not be empty for specified object fields",
		"type: Required value: must not be empty at the root",
	}
	checkMessages(t, errs, want)
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
