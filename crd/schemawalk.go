package crd

import (
	"github.com/crdschema/crdschema"
)

// schemaHas reports whether pred holds for s or any schema below it,
// including the ones under keywords CRDs do not allow (patternProperties,
// definitions, dependencies, additionalItems), visiting nodes depth-first.
// pred must not keep the pointer it is given: schemas held in maps are
// passed through a scratch copy that the next sibling reuses.
func schemaHas(s *crdschema.JSONSchemaProps, pred func(*crdschema.JSONSchemaProps) bool) bool {
	w := schemaWalker{pred: pred}
	return w.has(s, 0)
}

// schemaWalker walks schemas for schemaHas. Map values cannot be
// addressed, so each level has one scratch copy instead of one heap copy
// per property.
type schemaWalker struct {
	pred    func(*crdschema.JSONSchemaProps) bool
	scratch []*crdschema.JSONSchemaProps
}

func (w *schemaWalker) slot(depth int) *crdschema.JSONSchemaProps {
	for len(w.scratch) <= depth {
		w.scratch = append(w.scratch, new(crdschema.JSONSchemaProps))
	}
	return w.scratch[depth]
}

func (w *schemaWalker) hasIn(m map[string]crdschema.JSONSchemaProps, depth int) bool {
	if len(m) == 0 {
		return false
	}
	sl := w.slot(depth)
	for _, p := range m {
		*sl = p
		if w.has(sl, depth+1) {
			return true
		}
	}
	return false
}

func (w *schemaWalker) has(s *crdschema.JSONSchemaProps, depth int) bool {
	if s == nil {
		return false
	}
	if w.pred(s) {
		return true
	}
	if s.Items != nil {
		if w.has(s.Items.Schema, depth+1) {
			return true
		}
		for i := range s.Items.JSONSchemas {
			if w.has(&s.Items.JSONSchemas[i], depth+1) {
				return true
			}
		}
	}
	for _, list := range [][]crdschema.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			if w.has(&list[i], depth+1) {
				return true
			}
		}
	}
	if w.has(s.Not, depth+1) {
		return true
	}
	if w.hasIn(s.Properties, depth) {
		return true
	}
	if s.AdditionalProperties != nil && w.has(s.AdditionalProperties.Schema, depth+1) {
		return true
	}
	if w.hasIn(s.PatternProperties, depth) {
		return true
	}
	if s.AdditionalItems != nil && w.has(s.AdditionalItems.Schema, depth+1) {
		return true
	}
	if w.hasIn(s.Definitions, depth) {
		return true
	}
	for _, d := range s.Dependencies {
		if w.has(d.Schema, depth+1) {
			return true
		}
	}
	return false
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
	// One walk over the whole schema finds both.
	var f nullsFinder
	f.walk(v.OpenAPIV3Schema)
	if !f.null {
		return v, f.def
	}
	return &crdschema.CustomResourceValidation{OpenAPIV3Schema: copyWithoutNulls(v.OpenAPIV3Schema)}, f.def
}

// nullsFinder is withoutNulls' walk: the nodes schemaHas visits, without
// a predicate, so that each property is copied out of its map onto the
// walking call's stack (schemaHas' predicate could keep the pointer).
type nullsFinder struct {
	null bool // an explicit null default or example
	def  bool // a default other than null
}

// walk visits s and the schemas below it; it reports whether both were
// found, which ends the walk.
func (f *nullsFinder) walk(s *crdschema.JSONSchemaProps) bool {
	if s == nil {
		return false
	}
	f.null = f.null || isNull(s.Default) || isNull(s.Example)
	f.def = f.def || (s.Default != nil && !isNull(s.Default))
	if f.null && f.def {
		return true
	}
	var prop crdschema.JSONSchemaProps
	for _, m := range [...]map[string]crdschema.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for _, p := range m {
			if prop = p; f.walk(&prop) {
				return true
			}
		}
	}
	for _, list := range [...][]crdschema.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			if f.walk(&list[i]) {
				return true
			}
		}
	}
	if s.Items != nil {
		for i := range s.Items.JSONSchemas {
			if f.walk(&s.Items.JSONSchemas[i]) {
				return true
			}
		}
		if f.walk(s.Items.Schema) {
			return true
		}
	}
	if s.AdditionalProperties != nil && f.walk(s.AdditionalProperties.Schema) {
		return true
	}
	if s.AdditionalItems != nil && f.walk(s.AdditionalItems.Schema) {
		return true
	}
	for _, d := range s.Dependencies {
		if f.walk(d.Schema) {
			return true
		}
	}
	return f.walk(s.Not)
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
