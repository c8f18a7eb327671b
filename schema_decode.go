package crdschema

import (
	"fmt"
	"math"
)

// Decoding a schema node by node with encoding/json would scan the bytes
// of every node once per level above it (each nested UnmarshalJSON
// validates its own bytes again). Instead a schema is decoded once into
// the generic form and converted from there, in one pass over the tree.

// schemaFromValue fills s from v, the generic form of a schema object.
// Field names are case-sensitive and unknown fields are ignored, as the
// API server's decoder does; null leaves a field unset, except default and
// example, where it is an explicit null.
func schemaFromValue(s *JSONSchemaProps, v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		if v == nil {
			return nil
		}
		return typeError(v, "", "crdschema.JSONSchemaProps")
	}
	for k, val := range m {
		if val == nil && k != "default" && k != "example" {
			continue
		}
		var err error
		switch k {
		case "id":
			err = setString(&s.ID, val, k)
		case "$schema":
			var str string
			err = setString(&str, val, k)
			s.Schema = str
		case "$ref":
			var str string
			if err = setString(&str, val, k); err == nil {
				s.Ref = &str
			}
		case "description":
			err = setString(&s.Description, val, k)
		case "type":
			err = setString(&s.Type, val, k)
		case "format":
			err = setString(&s.Format, val, k)
		case "title":
			err = setString(&s.Title, val, k)
		case "default":
			s.Default = &JSON{Value: val}
		case "example":
			s.Example = &JSON{Value: val}
		case "maximum":
			s.Maximum, err = floatPtr(val, k)
		case "exclusiveMaximum":
			err = setBool(&s.ExclusiveMaximum, val, k)
		case "minimum":
			s.Minimum, err = floatPtr(val, k)
		case "exclusiveMinimum":
			err = setBool(&s.ExclusiveMinimum, val, k)
		case "maxLength":
			s.MaxLength, err = intPtr(val, k)
		case "minLength":
			s.MinLength, err = intPtr(val, k)
		case "pattern":
			err = setString(&s.Pattern, val, k)
		case "maxItems":
			s.MaxItems, err = intPtr(val, k)
		case "minItems":
			s.MinItems, err = intPtr(val, k)
		case "uniqueItems":
			err = setBool(&s.UniqueItems, val, k)
		case "multipleOf":
			s.MultipleOf, err = floatPtr(val, k)
		case "enum":
			l, ok := val.([]any)
			if !ok {
				return typeError(val, k, "[]crdschema.JSON")
			}
			s.Enum = make([]JSON, len(l))
			for i, e := range l {
				s.Enum[i].Value = e
			}
		case "maxProperties":
			s.MaxProperties, err = intPtr(val, k)
		case "minProperties":
			s.MinProperties, err = intPtr(val, k)
		case "required":
			s.Required, err = stringList(val, k)
		case "items":
			s.Items, err = schemaOrArrayFromValue(val)
		case "allOf":
			s.AllOf, err = schemaList(val, k)
		case "oneOf":
			s.OneOf, err = schemaList(val, k)
		case "anyOf":
			s.AnyOf, err = schemaList(val, k)
		case "not":
			s.Not = new(JSONSchemaProps)
			err = schemaFromValue(s.Not, val)
		case "properties":
			s.Properties, err = schemaMap(val, k)
		case "additionalProperties":
			s.AdditionalProperties, err = schemaOrBoolFromValue(val)
		case "patternProperties":
			s.PatternProperties, err = schemaMap(val, k)
		case "dependencies":
			mm, ok := val.(map[string]any)
			if !ok {
				return typeError(val, k, "map[string]crdschema.JSONSchemaPropsOrStringArray")
			}
			s.Dependencies = make(map[string]JSONSchemaPropsOrStringArray, len(mm))
			for name, d := range mm {
				var dep JSONSchemaPropsOrStringArray
				if dep, err = schemaOrStringArrayFromValue(d); err != nil {
					return err
				}
				s.Dependencies[name] = dep
			}
		case "additionalItems":
			s.AdditionalItems, err = schemaOrBoolFromValue(val)
		case "definitions":
			var defs map[string]JSONSchemaProps
			defs, err = schemaMap(val, k)
			s.Definitions = defs
		case "externalDocs":
			mm, ok := val.(map[string]any)
			if !ok {
				return typeError(val, k, "crdschema.ExternalDocumentation")
			}
			d := &ExternalDocumentation{}
			if err = setString(&d.Description, mm["description"], "description"); err == nil {
				err = setString(&d.URL, mm["url"], "url")
			}
			s.ExternalDocs = d
		case "nullable":
			err = setBool(&s.Nullable, val, k)
		case "x-kubernetes-preserve-unknown-fields":
			var b bool
			if err = setBool(&b, val, k); err == nil {
				s.XPreserveUnknownFields = &b
			}
		case "x-kubernetes-embedded-resource":
			err = setBool(&s.XEmbeddedResource, val, k)
		case "x-kubernetes-int-or-string":
			err = setBool(&s.XIntOrString, val, k)
		case "x-kubernetes-list-map-keys":
			s.XListMapKeys, err = stringList(val, k)
		case "x-kubernetes-list-type":
			var str string
			if err = setString(&str, val, k); err == nil {
				s.XListType = &str
			}
		case "x-kubernetes-map-type":
			var str string
			if err = setString(&str, val, k); err == nil {
				s.XMapType = &str
			}
		case "x-kubernetes-validations":
			s.XValidations, err = rulesFromValue(val)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func schemaOrBoolFromValue(v any) (*JSONSchemaPropsOrBool, error) {
	switch t := v.(type) {
	case map[string]any:
		s := new(JSONSchemaProps)
		if err := schemaFromValue(s, t); err != nil {
			return nil, err
		}
		return &JSONSchemaPropsOrBool{Allows: true, Schema: s}, nil
	case bool:
		return &JSONSchemaPropsOrBool{Allows: t}, nil
	}
	return nil, fmt.Errorf("boolean or JSON schema expected")
}

// schemaOrArrayFromValue reads items: a schema or a list of schemas; like
// the API server, it ignores any other value.
func schemaOrArrayFromValue(v any) (*JSONSchemaPropsOrArray, error) {
	out := &JSONSchemaPropsOrArray{}
	switch t := v.(type) {
	case map[string]any:
		out.Schema = new(JSONSchemaProps)
		if err := schemaFromValue(out.Schema, t); err != nil {
			return nil, err
		}
	case []any:
		l, err := schemaList(t, "items")
		if err != nil {
			return nil, err
		}
		if l == nil {
			l = []JSONSchemaProps{}
		}
		out.JSONSchemas = l
	}
	return out, nil
}

// schemaOrStringArrayFromValue reads a dependency: a schema or a list of
// property names; like the API server, it ignores any other value.
func schemaOrStringArrayFromValue(v any) (JSONSchemaPropsOrStringArray, error) {
	var out JSONSchemaPropsOrStringArray
	switch t := v.(type) {
	case map[string]any:
		out.Schema = new(JSONSchemaProps)
		if err := schemaFromValue(out.Schema, t); err != nil {
			return out, err
		}
	case []any:
		l, err := stringList(t, "dependencies")
		if err != nil {
			return out, err
		}
		if l == nil {
			l = []string{}
		}
		out.Property = l
	}
	return out, nil
}

func schemaList(v any, field string) ([]JSONSchemaProps, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, typeError(v, field, "[]crdschema.JSONSchemaProps")
	}
	out := make([]JSONSchemaProps, len(l))
	for i, e := range l {
		if err := schemaFromValue(&out[i], e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func schemaMap(v any, field string) (map[string]JSONSchemaProps, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, typeError(v, field, "map[string]crdschema.JSONSchemaProps")
	}
	out := make(map[string]JSONSchemaProps, len(m))
	for k, e := range m {
		var s JSONSchemaProps
		if err := schemaFromValue(&s, e); err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

func rulesFromValue(v any) ([]ValidationRule, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, typeError(v, "x-kubernetes-validations", "[]crdschema.ValidationRule")
	}
	out := make([]ValidationRule, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			if e == nil {
				continue
			}
			return nil, typeError(e, "x-kubernetes-validations", "crdschema.ValidationRule")
		}
		r := &out[i]
		for k, val := range m {
			if val == nil {
				continue
			}
			var err error
			switch k {
			case "rule":
				err = setString(&r.Rule, val, k)
			case "message":
				err = setString(&r.Message, val, k)
			case "messageExpression":
				err = setString(&r.MessageExpression, val, k)
			case "reason":
				var str string
				if err = setString(&str, val, k); err == nil {
					reason := ErrorType(str)
					r.Reason = &reason
				}
			case "fieldPath":
				err = setString(&r.FieldPath, val, k)
			case "optionalOldSelf":
				var b bool
				if err = setBool(&b, val, k); err == nil {
					r.OptionalOldSelf = &b
				}
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func setString(dst *string, v any, field string) error {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		*dst = t
		return nil
	}
	return typeError(v, field, "string")
}

func setBool(dst *bool, v any, field string) error {
	switch t := v.(type) {
	case nil:
		return nil
	case bool:
		*dst = t
		return nil
	}
	return typeError(v, field, "bool")
}

func floatPtr(v any, field string) (*float64, error) {
	switch t := v.(type) {
	case int64:
		f := float64(t)
		return &f, nil
	case float64:
		return &t, nil
	}
	return nil, typeError(v, field, "float64")
}

func intPtr(v any, field string) (*int64, error) {
	switch t := v.(type) {
	case int64:
		return &t, nil
	case float64:
		// encoding/json refuses a fraction or an exponent for an integer
		// field, whatever its value.
		if t == math.Trunc(t) {
			return nil, fmt.Errorf("json: cannot unmarshal number %v into Go struct field JSONSchemaProps.%s of type int64", t, field)
		}
	}
	return nil, typeError(v, field, "int64")
}

func stringList(v any, field string) ([]string, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, typeError(v, field, "[]string")
	}
	out := make([]string, len(l))
	for i, e := range l {
		if err := setString(&out[i], e, field); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// typeError words a value of the wrong JSON type as encoding/json does.
func typeError(v any, field, goType string) error {
	kind := "number"
	switch v.(type) {
	case string:
		kind = "string"
	case bool:
		kind = "bool"
	case []any:
		kind = "array"
	case map[string]any:
		kind = "object"
	}
	if field == "" {
		return fmt.Errorf("json: cannot unmarshal %s into Go value of type %s", kind, goType)
	}
	return fmt.Errorf("json: cannot unmarshal %s into Go struct field JSONSchemaProps.%s of type %s", kind, field, goType)
}
