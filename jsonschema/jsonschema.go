package jsonschema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
)

// draft is the JSON Schema dialect of the schemas (their $schema):
// draft-07, which both yaml-language-server and kubeconform read.
const draft = "http://json-schema.org/draft-07/schema#"

// schema is a JSON Schema document.
type schema = map[string]any

// Option changes a conversion.
type Option func(*config)

type config struct {
	strict   bool
	junctors bool // converting inside allOf, anyOf, oneOf or not
}

// WithStrict forbids the fields the API server would prune as unknown
// (additionalProperties false), as kubectl --validate=strict does: for
// editors that should flag unknown fields.
func WithStrict() Option { return func(c *config) { c.strict = true } }

// Version returns the JSON Schema of version of def. It fails when def has
// no such version or the version has no schema.
func Version(def *crdschema.CustomResourceDefinition, version string, opts ...Option) (map[string]any, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	var props *crdschema.JSONSchemaProps
	if v := def.Version(version); v != nil && v.Schema != nil {
		props = v.Schema.OpenAPIV3Schema
	}
	if props == nil {
		return nil, fmt.Errorf("CRD %s has no schema for version %q", def.Name, version)
	}
	s := c.convert(props, false)
	s["$schema"] = draft
	s["title"] = fmt.Sprintf("%s %s/%s", def.Spec.Names.Kind, def.Spec.Group, version)
	// the root always has these, whatever the CRD's schema says
	c.resourceProperties(s, schema{"type": "string", "enum": []any{def.Spec.Group + "/" + version}},
		schema{"type": "string", "enum": []any{def.Spec.Names.Kind}})
	return s, nil
}

// resourceProperties gives s, the schema of a resource, the properties
// apiVersion and kind where it lacks them, and metadata as the API server
// decodes it (objectMeta).
func (c *config) resourceProperties(s, apiVersion, kind schema) {
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	for k, v := range map[string]schema{"apiVersion": apiVersion, "kind": kind} {
		if _, ok := props[k]; !ok {
			props[k] = v
		}
	}
	crdMeta, _ := props["metadata"].(map[string]any)
	props["metadata"] = c.objectMeta(crdMeta)
	s["properties"] = props
}

// convert converts one schema. optional is whether it is the schema of an
// optional property (whose null the API server drops).
func (c *config) convert(p *crdschema.JSONSchemaProps, optional bool) schema {
	s := schema{}
	var notes []string
	preserve := p.XPreserveUnknownFields != nil && *p.XPreserveUnknownFields

	switch {
	case p.XIntOrString:
		s["type"] = []any{"integer", "string"}
	case p.Type != "":
		s["type"] = p.Type
	}
	optional = optional && !c.junctors
	if p.Nullable || optional {
		if t, ok := s["type"]; ok {
			s["type"] = append(types(t), "null")
		}
	}
	if p.Description != "" {
		notes = append(notes, p.Description)
	}
	if hasDefault(p) {
		s["default"] = p.Default.Value
	}
	if len(p.Enum) > 0 {
		enum := make([]any, 0, len(p.Enum)+1)
		hasNull := false
		for _, e := range p.Enum {
			enum = append(enum, e.Value)
			hasNull = hasNull || e.Value == nil
		}
		if (p.Nullable || optional) && !hasNull {
			enum = append(enum, nil)
		}
		s["enum"] = enum
	}
	if p.Format != "" {
		notes = append(notes, fmt.Sprintf("Format: %s (checked by the API server, not by this schema).", p.Format))
	}
	if p.Pattern != "" {
		s["pattern"] = p.Pattern
	}
	setPtr(s, "maxLength", p.MaxLength)
	setPtr(s, "minLength", p.MinLength)
	setPtr(s, "maxItems", p.MaxItems)
	setPtr(s, "minItems", p.MinItems)
	setPtr(s, "maxProperties", p.MaxProperties)
	setPtr(s, "minProperties", p.MinProperties)
	setLimit(s, "maximum", "exclusiveMaximum", p.Maximum, p.ExclusiveMaximum)
	setLimit(s, "minimum", "exclusiveMinimum", p.Minimum, p.ExclusiveMinimum)
	setPtr(s, "multipleOf", p.MultipleOf)
	if p.UniqueItems {
		s["uniqueItems"] = true
	}
	if p.XListType != nil {
		switch *p.XListType {
		case "set":
			s["uniqueItems"] = true
		case "map":
			notes = append(notes, fmt.Sprintf("A map list: items are unique by %s (checked by the API server, not by this schema).", strings.Join(p.XListMapKeys, ", ")))
		}
	}

	// properties
	if len(p.Properties) > 0 {
		props := make(map[string]any, len(p.Properties))
		for name, sub := range p.Properties {
			// null is dropped, then the default (if any) applies
			props[name] = c.convert(&sub, !slices.Contains(p.Required, name) || hasDefault(&sub))
		}
		s["properties"] = props
	}
	var req []any
	for _, r := range p.Required {
		if sub, ok := p.Properties[r]; ok && hasDefault(&sub) {
			continue // defaulted before validation
		}
		req = append(req, r)
	}
	if len(req) > 0 {
		s["required"] = req
	}
	switch {
	case p.AdditionalProperties != nil && p.AdditionalProperties.Schema != nil:
		s["additionalProperties"] = c.convert(p.AdditionalProperties.Schema, false)
	case p.AdditionalProperties != nil && !p.AdditionalProperties.Allows:
		if c.strict {
			s["additionalProperties"] = false
		}
	case c.strict && p.Type == "object" && !preserve && !p.XEmbeddedResource:
		s["additionalProperties"] = false
	}
	if p.Items != nil && p.Items.Schema != nil {
		s["items"] = c.convert(p.Items.Schema, false)
	}
	if p.XEmbeddedResource {
		c.resourceProperties(s, schema{"type": "string"}, schema{"type": "string"})
	}
	defaults := map[string]any{}
	for name, sub := range p.Properties {
		if sub.Default != nil {
			defaults[name] = sub.Default.Value
		}
	}
	for name, list := range map[string][]crdschema.JSONSchemaProps{"allOf": p.AllOf, "anyOf": p.AnyOf, "oneOf": p.OneOf} {
		if len(list) == 0 {
			continue
		}
		out := make([]any, len(list))
		for i := range list {
			out[i] = c.junctor(&list[i], defaults)
		}
		s[name] = out
	}
	if p.Not != nil {
		s["not"] = c.junctor(p.Not, defaults)
	}
	if len(p.XValidations) > 0 {
		var b strings.Builder
		b.WriteString("Validation rules (CEL, checked by the API server, not by this schema):")
		for _, r := range p.XValidations {
			b.WriteString("\n- " + r.Rule)
			switch {
			case r.Message != "":
				b.WriteString(" (" + r.Message + ")")
			case r.MessageExpression != "":
				b.WriteString(" (message: " + r.MessageExpression + ")")
			}
		}
		notes = append(notes, b.String())
		s["x-kubernetes-validations"] = rules(p.XValidations)
	}
	if len(notes) > 0 {
		s["description"] = strings.Join(notes, "\n\n")
	}
	return s
}

// junctor converts a schema inside allOf, anyOf, oneOf or not: value
// validations only, whose nulls are not special. The API server evaluates
// it on the defaulted object; JSON Schema sees an absent property instead.
// So a property whose default (in defaults) the junctor's condition on it
// refuses is made required in the junctor: absent, it fails as its default
// would.
func (c *config) junctor(p *crdschema.JSONSchemaProps, defaults map[string]any) schema {
	inner := *c
	inner.strict = false // a junctor cannot forbid what the structural schema allows
	inner.junctors = true
	s := inner.convert(p, false)
	props, _ := s["properties"].(map[string]any)
	var required []any
	for name, cond := range props {
		d, ok := defaults[name]
		if !ok {
			continue
		}
		if sat, known := satisfies(cond.(schema), d); known && !sat {
			required = append(required, name)
		}
	}
	if len(required) > 0 {
		slices.SortFunc(required, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
		s["required"] = append(types(s["required"]), required...)
	}
	return s
}

func types(t any) []any {
	switch t := t.(type) {
	case string:
		return []any{t}
	case []any:
		return append([]any(nil), t...)
	}
	return nil
}

// setPtr sets key to *v, unless v is nil.
func setPtr[T int64 | float64](s schema, key string, v *T) {
	if v != nil {
		s[key] = *v
	}
}

// setLimit sets the limit v (unless nil) as key, or as exclusiveKey when
// it is exclusive (JSON Schema draft-07's numbers, OpenAPI v3's booleans).
func setLimit(s schema, key, exclusiveKey string, v *float64, exclusive bool) {
	if v != nil && exclusive {
		key = exclusiveKey
	}
	setPtr(s, key, v)
}

// rules keeps the CEL rules as an extension for tools that read them.
func rules(rs []crdschema.ValidationRule) []any {
	out := make([]any, 0, len(rs))
	for _, r := range rs {
		b, err := json.Marshal(r)
		if err != nil {
			continue
		}
		var v any
		if json.Unmarshal(b, &v) == nil {
			out = append(out, v)
		}
	}
	return out
}

// hasDefault reports whether p has a default: an explicit null is none, as
// the API server drops it when it reads the CRD.
func hasDefault(p *crdschema.JSONSchemaProps) bool {
	return p.Default != nil && p.Default.Value != nil
}
