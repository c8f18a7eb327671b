package crd

import (
	"github.com/crdschema/crdschema"
)

// schemaHas reports whether pred holds for s or any schema below it,
// including the ones under keywords CRDs do not allow (patternProperties,
// definitions, dependencies, additionalItems), visiting nodes depth-first.
// pred gets each schema by value: a schema held in a map is copied onto
// the walking call's stack (map values cannot be addressed), which a
// pointer given to pred would move to the heap.
func schemaHas(s *crdschema.JSONSchemaProps, pred func(crdschema.JSONSchemaProps) bool) bool {
	if s == nil {
		return false
	}
	if pred(*s) {
		return true
	}
	var prop crdschema.JSONSchemaProps
	for _, m := range [...]map[string]crdschema.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for _, p := range m {
			if prop = p; schemaHas(&prop, pred) {
				return true
			}
		}
	}
	for _, list := range [...][]crdschema.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			if schemaHas(&list[i], pred) {
				return true
			}
		}
	}
	if s.Items != nil {
		for i := range s.Items.JSONSchemas {
			if schemaHas(&s.Items.JSONSchemas[i], pred) {
				return true
			}
		}
		if schemaHas(s.Items.Schema, pred) {
			return true
		}
	}
	if s.AdditionalProperties != nil && schemaHas(s.AdditionalProperties.Schema, pred) {
		return true
	}
	if s.AdditionalItems != nil && schemaHas(s.AdditionalItems.Schema, pred) {
		return true
	}
	for _, d := range s.Dependencies {
		if schemaHas(d.Schema, pred) {
			return true
		}
	}
	return schemaHas(s.Not, pred)
}

// isNull reports whether j is an explicit JSON null.
func isNull(j *crdschema.JSON) bool {
	return j != nil && j.Value == nil
}

// withoutNulls returns v, or a copy of it whose schema has no explicit null
// default or example: the API server decodes "default: null" and
// "example: null" as absent. v itself is never modified. It also reports
// whether the schema has a default (other than null).
func withoutNulls(v *crdschema.CustomResourceValidation) (_ *crdschema.CustomResourceValidation, hasDefault bool) {
	if v == nil || v.OpenAPIV3Schema == nil {
		return v, false
	}
	var f nullsAndDefaults
	f.find(v.OpenAPIV3Schema)
	if !f.null {
		return v, f.def
	}
	return &crdschema.CustomResourceValidation{OpenAPIV3Schema: copyWithoutNulls(v.OpenAPIV3Schema)}, f.def
}

// nullsAndDefaults finds whether a schema has explicit nulls (null, for a
// default or an example) and defaults other than null (def), in one walk
// of the nodes schemaHas visits. It is schemaHas without its predicate,
// which takes each node by value: here a node is copied once.
type nullsAndDefaults struct{ null, def bool }

func (f *nullsAndDefaults) find(s *crdschema.JSONSchemaProps) {
	if s == nil || f.null && f.def {
		return
	}
	f.null = f.null || isNull(s.Default) || isNull(s.Example)
	f.def = f.def || s.Default != nil && !isNull(s.Default)
	var prop crdschema.JSONSchemaProps
	for _, m := range [...]map[string]crdschema.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for _, p := range m {
			prop = p
			f.find(&prop)
		}
	}
	for _, list := range [...][]crdschema.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			f.find(&list[i])
		}
	}
	for _, p := range [...]*crdschema.JSONSchemaPropsOrBool{s.AdditionalProperties, s.AdditionalItems} {
		if p != nil {
			f.find(p.Schema)
		}
	}
	if s.Items != nil {
		for i := range s.Items.JSONSchemas {
			f.find(&s.Items.JSONSchemas[i])
		}
		f.find(s.Items.Schema)
	}
	for _, d := range s.Dependencies {
		f.find(d.Schema)
	}
	f.find(s.Not)
}

// copyWithoutNulls deep-copies the schema tree of s, dropping explicit null
// defaults and examples. Values (defaults, enums, examples) are shared.
func copyWithoutNulls(s *crdschema.JSONSchemaProps) *crdschema.JSONSchemaProps {
	if s == nil {
		return nil
	}
	c := *s
	if isNull(c.Default) {
		c.Default = nil
	}
	if isNull(c.Example) {
		c.Example = nil
	}
	if s.Items != nil {
		c.Items = &crdschema.JSONSchemaPropsOrArray{Schema: copyWithoutNulls(s.Items.Schema), JSONSchemas: copyList(s.Items.JSONSchemas)}
	}
	c.AllOf = copyList(s.AllOf)
	c.AnyOf = copyList(s.AnyOf)
	c.OneOf = copyList(s.OneOf)
	c.Not = copyWithoutNulls(s.Not)
	c.Properties = copyMap(s.Properties)
	if s.AdditionalProperties != nil {
		c.AdditionalProperties = &crdschema.JSONSchemaPropsOrBool{Allows: s.AdditionalProperties.Allows, Schema: copyWithoutNulls(s.AdditionalProperties.Schema)}
	}
	c.PatternProperties = copyMap(s.PatternProperties)
	if s.AdditionalItems != nil {
		c.AdditionalItems = &crdschema.JSONSchemaPropsOrBool{Allows: s.AdditionalItems.Allows, Schema: copyWithoutNulls(s.AdditionalItems.Schema)}
	}
	c.Definitions = copyMap(s.Definitions)
	if s.Dependencies != nil {
		c.Dependencies = make(map[string]crdschema.JSONSchemaPropsOrStringArray, len(s.Dependencies))
		for k, d := range s.Dependencies {
			c.Dependencies[k] = crdschema.JSONSchemaPropsOrStringArray{Schema: copyWithoutNulls(d.Schema), Property: d.Property}
		}
	}
	return &c
}

func copyList(l []crdschema.JSONSchemaProps) []crdschema.JSONSchemaProps {
	if l == nil {
		return nil
	}
	out := make([]crdschema.JSONSchemaProps, len(l))
	for i := range l {
		out[i] = *copyWithoutNulls(&l[i])
	}
	return out
}

func copyMap(m map[string]crdschema.JSONSchemaProps) map[string]crdschema.JSONSchemaProps {
	if m == nil {
		return nil
	}
	out := make(map[string]crdschema.JSONSchemaProps, len(m))
	for k, s := range m {
		out[k] = *copyWithoutNulls(&s)
	}
	return out
}
