package structural

import (
	"testing"
)

func TestValidateProps(t *testing.T) {
	const p = "spec.validation.openAPIV3Schema"
	create := Options{}
	tests := []struct {
		name   string
		schema string
		opts   Options
		want   []string
	}{
		{"valid", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string","default":"x"}}}}}`, create, nil},
		{"unsupported keywords", `{"type":"object","properties":{"a":{"type":"object","id":"x","$ref":"#/a","additionalItems":false,"patternProperties":{"^a":{"type":"string"}},"definitions":{"d":{"type":"string"}},"dependencies":{"x":["y"]}}}}`, create,
			[]string{
				p + ".properties[a].id: Forbidden: id is not supported",
				p + ".properties[a].additionalItems: Forbidden: additionalItems is not supported",
				p + ".properties[a].patternProperties: Forbidden: patternProperties is not supported",
				p + ".properties[a].definitions: Forbidden: definitions is not supported",
				p + ".properties[a].dependencies: Forbidden: dependencies is not supported",
				p + ".properties[a].$ref: Forbidden: $ref is not supported",
			}},
		{"types", `{"type":"object","properties":{"a":{"type":"null"},"b":{"type":"foo"}}}`, create,
			[]string{
				p + `.properties[a].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
				p + ".properties[a].type: Forbidden: type cannot be set to null, use nullable as an alternative",
				p + `.properties[b].type: Unsupported value: "foo": supported values: "array", "boolean", "integer", "number", "object", "string"`,
			}},
		{"types not checked when not required", `{"type":"object","properties":{"b":{"type":"foo"}}}`, Options{AllowInvalidPropertyType: true, AllowNonAtomicSetItems: true, AllowNullableListKeys: true}, nil},
		{"items as a list", `{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string","uniqueItems":true}]}}}`, create,
			[]string{
				p + ".properties[a].items: Forbidden: items must be a schema object and not an array",
				p + ".properties[a].items[0].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
			}},
		{"uniqueItems", `{"type":"object","properties":{"a":{"type":"array","uniqueItems":true,"items":{"type":"string"}}}}`, create,
			[]string{p + ".properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic"}},
		{"additionalProperties with properties", `{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false},"b":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":true},"c":{"type":"object","additionalProperties":false}}}`, create,
			[]string{p + ".properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"}},
		{"defaults in resource meta", `{"type":"object","properties":{"metadata":{"type":"object","default":{}},"kind":{"type":"string","default":"K"},"apiVersion":{"type":"string","default":"v"},"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"properties":{"kind":{"type":"string","default":"K"},"metadata":{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"string","default":"x"}}}}}}}}`, create,
			[]string{
				p + ".properties[apiVersion].default: Forbidden: must not be set in top-level apiVersion",
				p + ".properties[e].properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata",
				p + ".properties[kind].default: Forbidden: must not be set in top-level kind",
				p + ".properties[metadata].default: Forbidden: must not be set in top-level metadata",
			}},
		{"defaults not allowed", `{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"string","default":null}}}`,
			Options{ForbidDefaults: true, ForbidDefaultsReason: "because pruning is off", AllowInvalidPropertyType: true, AllowNonAtomicSetItems: true, AllowNullableListKeys: true},
			[]string{p + ".properties[a].default: Forbidden: must not be set because pruning is off"}},
		{"embedded resource inside resource meta", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","x-kubernetes-embedded-resource":true}}}}}`, create,
			[]string{p + ".properties[metadata].properties[name].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta"}},
		{"preserve-unknown-fields false", `{"type":"object","properties":{"a":{"type":"object","x-kubernetes-preserve-unknown-fields":false}}}`, create,
			[]string{p + ".properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"}},
		{"map type", `{"type":"object","properties":{"a":{"type":"string","x-kubernetes-map-type":"atomic"},"b":{"x-kubernetes-map-type":"foo","x-kubernetes-preserve-unknown-fields":true}}}`, create,
			[]string{
				p + `.properties[a].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
				p + ".properties[b].type: Required value: must be object if x-kubernetes-map-type is specified",
				p + `.properties[b].x-kubernetes-map-type: Unsupported value: "foo": supported values: "atomic", "granular"`,
			}},
		{"list type", `{"type":"object","properties":{"a":{"type":"string","x-kubernetes-list-type":"set"},"b":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"foo"}}}`, create,
			[]string{
				p + `.properties[a].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
				p + `.properties[b].x-kubernetes-list-type: Unsupported value: "foo": supported values: "atomic", "set", "map"`,
			}},
		{"set items must be atomic", `{"type":"object","properties":{"a":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object"}},"b":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"}},"c":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object","x-kubernetes-map-type":"atomic"}}}}`, create,
			[]string{
				p + ".properties[a].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set",
				p + `.properties[b].items.x-kubernetes-list-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set`,
			}},
		{"set items not checked when not required", `{"type":"object","properties":{"a":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object"}}}}`, Options{AllowInvalidPropertyType: true, AllowNonAtomicSetItems: true, AllowNullableListKeys: true}, nil},
		{"map lists", `{"type":"object","properties":{"a":{"type":"array","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]}},"b":{"type":"array","x-kubernetes-list-type":"map","items":{"type":"string"}},"c":{"type":"array","x-kubernetes-list-type":"atomic","x-kubernetes-list-map-keys":["k"],"items":{"type":"string"}},"d":{"type":"array","x-kubernetes-list-type":"map"},"e":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k","k","z","o"],"items":{"type":"object","properties":{"k":{"type":"string"},"o":{"type":"object"}},"required":["k","o"]}}}}`, create,
			[]string{
				p + ".properties[a].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty",
				p + ".properties[b].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map",
				p + `.properties[b].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
				p + `.properties[c].x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`,
				p + ".properties[d].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map",
				p + ".properties[d].items: Required value: must have a schema if x-kubernetes-list-type is map",
				p + `.properties[e].x-kubernetes-list-map-keys: Invalid value: ["k","k","z","o"]: must not contain duplicate entries`,
				p + `.properties[e].x-kubernetes-list-map-keys: Invalid value: ["k","k","z","o"]: entries must all be names of item properties`,
				p + `.properties[e].items.properties[o].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
			}},
		{"map list keys and items", `{"type":"object","properties":{"a":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k","d"],"items":{"type":"object","nullable":true,"properties":{"k":{"type":"string","nullable":true},"d":{"type":"string","default":"x"}}}},"s":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string","nullable":true}}}}`, create,
			[]string{
				p + ".properties[a].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map",
				p + ".properties[a].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
				p + ".properties[a].items.properties[k].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
				p + ".properties[s].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set",
			}},
		{"map list keys not checked when not required", `{"type":"object","properties":{"a":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","nullable":true,"properties":{"k":{"type":"string","nullable":true}}}}}}`, Options{AllowInvalidPropertyType: true, AllowNonAtomicSetItems: true, AllowNullableListKeys: true}, nil},
		{"junctors, definitions and dependencies are checked", `{"type":"object","properties":{"a":{"type":"string","not":{"uniqueItems":true},"allOf":[{"id":"x"}],"oneOf":[{"$ref":""}],"anyOf":[{"type":"null"}],"definitions":{"d":{"additionalItems":true}},"dependencies":{"x":{"patternProperties":{"a":{}}}}}}}`, create,
			[]string{
				p + ".properties[a].definitions: Forbidden: definitions is not supported",
				p + ".properties[a].dependencies: Forbidden: dependencies is not supported",
				p + ".properties[a].not.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
				p + ".properties[a].allOf[0].id: Forbidden: id is not supported",
				p + ".properties[a].oneOf[0].$ref: Forbidden: $ref is not supported",
				p + `.properties[a].anyOf[0].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
				p + ".properties[a].anyOf[0].type: Forbidden: type cannot be set to null, use nullable as an alternative",
				p + ".properties[a].definitions[d].additionalItems: Forbidden: additionalItems is not supported",
				p + ".properties[a].dependencies[x].patternProperties: Forbidden: patternProperties is not supported",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkMessages(t, ValidateProps(rootPath, props(t, tt.schema), tt.opts), tt.want)
		})
	}
}

func TestValidatePropsRules(t *testing.T) {
	const p = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations"
	schema := props(t, `{"type":"object","properties":{"spec":{"type":"object",
		"properties":{"a":{"type":"string"},"m":{"type":"object","additionalProperties":{"type":"object","properties":{"q":{"type":"string"}}}},"t":{"type":"object","additionalProperties":true}},
		"x-kubernetes-validations":[
			{"rule":"  "},
			{"rule":"true","message":"  "},
			{"rule":"true","message":"a\nb"},
			{"rule":"true\n&& true"},
			{"rule":"true","messageExpression":"  "},
			{"rule":"true","reason":"Bogus"},
			{"rule":"true","fieldPath":"  "},
			{"rule":"true","fieldPath":".a\n"},
			{"rule":"true","fieldPath":".b"},
			{"rule":"true","fieldPath":".m.x.q"},
			{"rule":"true","fieldPath":".m['x'].q"},
			{"rule":"true","fieldPath":"a"},
			{"rule":"true","fieldPath":".m['\\q']"},
			{"rule":"true","fieldPath":".t.x.y"},
			{"rule":"true","fieldPath":".t.x","reason":"FieldValueForbidden","message":"ok"}
		]}}}`)
	want := []string{
		p + "[0].rule: Required value: rule is not specified",
		p + `[1].message: Invalid value: "  ": must be non-empty if specified`,
		p + `[2].message: Invalid value: "a\nb": must not contain line breaks`,
		p + "[3].message: Required value: message must be specified if rule contains line breaks",
		p + "[4].messageExpression: Required value: messageExpression must be non-empty if specified",
		p + `[5].reason: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
		p + `[6].fieldPath: Invalid value: "  ": must be non-empty if specified`,
		p + `[6].fieldPath: Invalid value: "  ": must be a valid path`,
		p + `[7].fieldPath: Invalid value: ".a\n": must not contain line breaks`,
		p + `[7].fieldPath: Invalid value: ".a\n": must be a valid path`,
		p + `[8].fieldPath: Invalid value: ".b": must be a valid path`,
		p + `[11].fieldPath: Invalid value: "a": must be a valid path`,
		p + `[12].fieldPath: Invalid value: ".m['\\q']": must be a valid path`,
		// The API server crashes on this one.
		p + `[13].fieldPath: Invalid value: ".t.x.y": must be a valid path`,
	}
	checkMessages(t, ValidateProps(rootPath, schema, Options{}), want)

	// fieldPath is not checked on a schema that does not convert.
	schema = props(t, `{"type":"object","properties":{"a":{"type":"string","$ref":"#/x"}},"x-kubernetes-validations":[{"rule":"true","fieldPath":".b"}]}`)
	checkMessages(t, ValidateProps(rootPath, schema, Options{}), []string{
		"spec.validation.openAPIV3Schema.properties[a].$ref: Forbidden: $ref is not supported",
	})
}

func TestValidatePropsDoesNotModify(t *testing.T) {
	for _, c := range loadCases(t) {
		before := mustJSON(t, &c.Schema)
		ValidateProps(rootPath, &c.Schema, Options{})
		if after := mustJSON(t, &c.Schema); after != before {
			t.Fatalf("%s: ValidateProps modified its input", c.Name)
		}
	}
}
