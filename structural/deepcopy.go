package structural

import (
	"slices"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// DeepCopy returns a copy of s that shares nothing mutable with it.
func (s *Schema) DeepCopy() *Schema {
	if s == nil {
		return nil
	}
	c := &Schema{
		Generic:      s.Generic.deepCopy(),
		Extensions:   s.Extensions.deepCopy(),
		Items:        s.Items.DeepCopy(),
		XValidations: copyRules(s.XValidations),
	}
	if s.Properties != nil {
		c.Properties = make(map[string]*Schema, len(s.Properties))
		for k, v := range s.Properties {
			c.Properties[k] = v.DeepCopy()
		}
	}
	if s.AdditionalProperties != nil {
		c.AdditionalProperties = &SchemaOrBool{Schema: s.AdditionalProperties.Schema.DeepCopy(), Bool: s.AdditionalProperties.Bool}
	}
	if s.ValueValidation != nil {
		v := s.ValueValidation.deepCopy()
		c.ValueValidation = &v
	}
	return c
}

// DeepCopy returns a copy of n that shares nothing mutable with it.
func (n *NestedValueValidation) DeepCopy() *NestedValueValidation {
	if n == nil {
		return nil
	}
	c := &NestedValueValidation{
		ValueValidation:      n.ValueValidation.deepCopy(),
		XValidations:         copyRules(n.XValidations),
		Items:                n.Items.DeepCopy(),
		AdditionalProperties: n.AdditionalProperties.DeepCopy(),
		ForbiddenGenerics:    n.ForbiddenGenerics.deepCopy(),
		ForbiddenExtensions:  n.ForbiddenExtensions.deepCopy(),
	}
	if n.Properties != nil {
		c.Properties = make(map[string]*NestedValueValidation, len(n.Properties))
		for k, v := range n.Properties {
			c.Properties[k] = v.DeepCopy()
		}
	}
	return c
}

func (g Generic) deepCopy() Generic {
	if g.Default != nil {
		g.Default = &crdschema.JSON{Value: jsonvalue.Copy(g.Default.Value)}
	}
	if g.Example != nil {
		g.Example = &crdschema.JSON{Value: jsonvalue.Copy(g.Example.Value)}
	}
	g.ExternalDocs = clonePtr(g.ExternalDocs)
	return g
}

func (x Extensions) deepCopy() Extensions {
	x.XListMapKeys = slices.Clone(x.XListMapKeys)
	x.XListType = clonePtr(x.XListType)
	x.XMapType = clonePtr(x.XMapType)
	return x
}

func (v ValueValidation) deepCopy() ValueValidation {
	v.Maximum = clonePtr(v.Maximum)
	v.Minimum = clonePtr(v.Minimum)
	v.MultipleOf = clonePtr(v.MultipleOf)
	v.MaxLength = clonePtr(v.MaxLength)
	v.MinLength = clonePtr(v.MinLength)
	v.MaxItems = clonePtr(v.MaxItems)
	v.MinItems = clonePtr(v.MinItems)
	v.MaxProperties = clonePtr(v.MaxProperties)
	v.MinProperties = clonePtr(v.MinProperties)
	v.Required = slices.Clone(v.Required)
	if v.Enum != nil {
		e := make([]crdschema.JSON, len(v.Enum))
		for i := range v.Enum {
			e[i].Value = jsonvalue.Copy(v.Enum[i].Value)
		}
		v.Enum = e
	}
	v.AllOf = copyNestedList(v.AllOf)
	v.AnyOf = copyNestedList(v.AnyOf)
	v.OneOf = copyNestedList(v.OneOf)
	v.Not = v.Not.DeepCopy()
	return v
}

func copyNestedList(l []NestedValueValidation) []NestedValueValidation {
	if l == nil {
		return nil
	}
	out := make([]NestedValueValidation, len(l))
	for i := range l {
		out[i] = *l[i].DeepCopy()
	}
	return out
}
