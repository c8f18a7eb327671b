package structural

import (
	"slices"

	"github.com/crdschema/crdschema"
)

// ToJSONSchemaProps converts s back into an OpenAPI v3 schema: junctors
// return to allOf, anyOf, oneOf and not, x-kubernetes extensions appear
// only when set, and an int-or-string node keeps an empty type (it is not
// turned into a list of types). The result shares nothing mutable with s.
// A nil s gives nil.
//
// Together with New this is a round trip for every schema that New
// accepts, up to what New normalizes away (an explicit null default or
// example, empty properties, empty enum and junctor lists).
func (s *Schema) ToJSONSchemaProps() *crdschema.JSONSchemaProps {
	if s == nil {
		return nil
	}
	p := &crdschema.JSONSchemaProps{}
	if s.Items != nil {
		p.Items = &crdschema.JSONSchemaPropsOrArray{Schema: s.Items.ToJSONSchemaProps()}
	}
	p.Properties = propertiesToProps(s.Properties)
	if s.AdditionalProperties != nil {
		p.AdditionalProperties = &crdschema.JSONSchemaPropsOrBool{
			Allows: s.AdditionalProperties.Bool,
			Schema: s.AdditionalProperties.Schema.ToJSONSchemaProps(),
		}
	}
	s.Generic.toProps(p)
	s.Extensions.toProps(p)
	if s.ValueValidation != nil {
		s.ValueValidation.toProps(p)
	}
	p.XValidations = rulesToProps(s.XValidations)
	return p
}

func (g *Generic) toProps(p *crdschema.JSONSchemaProps) {
	c := g.deepCopy()
	p.Type = c.Type
	p.Nullable = c.Nullable
	p.Description = c.Description
	p.Title = c.Title
	p.Default = c.Default
	p.ExternalDocs = c.ExternalDocs
	p.Example = c.Example
}

func (x *Extensions) toProps(p *crdschema.JSONSchemaProps) {
	if x.XPreserveUnknownFields {
		t := true
		p.XPreserveUnknownFields = &t
	}
	p.XEmbeddedResource = x.XEmbeddedResource
	p.XIntOrString = x.XIntOrString
	if len(x.XListMapKeys) > 0 {
		p.XListMapKeys = slices.Clone(x.XListMapKeys)
	}
	p.XListType = clonePtr(x.XListType)
	p.XMapType = clonePtr(x.XMapType)
}

// rulesToProps copies rules, leaving an empty list out.
func rulesToProps(r []crdschema.ValidationRule) []crdschema.ValidationRule {
	if len(r) == 0 {
		return nil
	}
	return copyRules(r)
}

func (v *ValueValidation) toProps(p *crdschema.JSONSchemaProps) {
	c := v.deepCopy()
	p.Format = c.Format
	p.Maximum = c.Maximum
	p.ExclusiveMaximum = c.ExclusiveMaximum
	p.Minimum = c.Minimum
	p.ExclusiveMinimum = c.ExclusiveMinimum
	p.MaxLength = c.MaxLength
	p.MinLength = c.MinLength
	p.Pattern = c.Pattern
	p.MaxItems = c.MaxItems
	p.MinItems = c.MinItems
	p.UniqueItems = c.UniqueItems
	p.MultipleOf = c.MultipleOf
	p.Enum = c.Enum
	p.MaxProperties = c.MaxProperties
	p.MinProperties = c.MinProperties
	p.Required = c.Required
	p.AllOf = nestedListToProps(v.AllOf)
	p.AnyOf = nestedListToProps(v.AnyOf)
	p.OneOf = nestedListToProps(v.OneOf)
	p.Not = v.Not.ToJSONSchemaProps()
}

// propertiesToProps converts properties back, a nil one into an empty
// schema.
func propertiesToProps[S interface {
	ToJSONSchemaProps() *crdschema.JSONSchemaProps
}](m map[string]S) map[string]crdschema.JSONSchemaProps {
	if m == nil {
		return nil
	}
	out := make(map[string]crdschema.JSONSchemaProps, len(m))
	for k, v := range m {
		if c := v.ToJSONSchemaProps(); c != nil {
			out[k] = *c
		} else {
			out[k] = crdschema.JSONSchemaProps{}
		}
	}
	return out
}

func nestedListToProps(l []NestedValueValidation) []crdschema.JSONSchemaProps {
	if l == nil {
		return nil
	}
	out := make([]crdschema.JSONSchemaProps, len(l))
	for i := range l {
		out[i] = *l[i].ToJSONSchemaProps()
	}
	return out
}

// ToJSONSchemaProps converts n back into an OpenAPI v3 schema, including
// the shaping keywords it holds in its Forbidden fields (normally none;
// the int-or-string patterns' types). A nil n gives nil.
func (n *NestedValueValidation) ToJSONSchemaProps() *crdschema.JSONSchemaProps {
	if n == nil {
		return nil
	}
	p := &crdschema.JSONSchemaProps{}
	n.ValueValidation.toProps(p)
	p.XValidations = rulesToProps(n.XValidations)
	if n.Items != nil {
		p.Items = &crdschema.JSONSchemaPropsOrArray{Schema: n.Items.ToJSONSchemaProps()}
	}
	p.Properties = propertiesToProps(n.Properties)
	// The API server leaves a nested additionalProperties out here; CRDs
	// cannot have one, and keeping it makes the conversion faithful.
	if n.AdditionalProperties != nil {
		p.AdditionalProperties = &crdschema.JSONSchemaPropsOrBool{Allows: true, Schema: n.AdditionalProperties.ToJSONSchemaProps()}
	}
	n.ForbiddenGenerics.toProps(p)
	n.ForbiddenExtensions.toProps(p)
	return p
}
