package crd

import (
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/structural"
)

// defaultObject applies the defaults of obj's version, as
// defaulting.Default(obj, r.schemaOf(obj)) does, walking only the parts of
// obj under which the schema has defaults.
func (r *Resource) defaultObject(obj map[string]any) {
	s := r.schemaOf(obj)
	if s == nil {
		return
	}
	r.prepareWalks()
	d, ok := r.defaultSchemas[s]
	if !ok {
		d = s
	}
	if d != nil {
		defaulting.Default(obj, d)
	}
}

// prepareWalks cuts the schemas down for the walks of requests, once.
func (r *Resource) prepareWalks() {
	r.walksOnce.Do(func() {
		r.defaultSchemas = make(map[*structural.Schema]*structural.Schema, len(r.schemas))
		for _, vs := range r.schemas {
			r.defaultSchemas[vs] = defaultsOnly(vs, 0)
		}
		r.listSchema = listTypesOnly(r.schema, 0)
	})
}

// defaultsOnly returns the part of s that defaulting.Default uses: the
// nodes at or above a default. Default does nothing below a node without
// one, so that it does with the result exactly what it does with s. nil
// means s has no default at all.
func defaultsOnly(s *structural.Schema, depth int) *structural.Schema {
	if s == nil {
		return nil
	}
	if depth > 1000 {
		return s // too deep to trim: all of it
	}
	items := defaultsOnly(s.Items, depth+1)
	var ap *structural.Schema
	if s.AdditionalProperties != nil {
		ap = defaultsOnly(s.AdditionalProperties.Schema, depth+1)
	}
	// With both properties and additionalProperties (not structural, but
	// New does not refuse it) a property that is left out would count as
	// an additional property: keep them all.
	keepAll := len(s.Properties) > 0 && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil
	var props map[string]*structural.Schema
	for k, p := range s.Properties {
		d := defaultsOnly(p, depth+1)
		if d == nil && keepAll {
			d = &structural.Schema{}
		}
		if d != nil {
			if props == nil {
				props = make(map[string]*structural.Schema)
			}
			props[k] = d
		}
	}
	if !s.HasDefault() && items == nil && ap == nil && (len(props) == 0 || keepAll && !hasDefaultBelow(props)) {
		return nil
	}
	out := *s
	out.Items = items
	out.Properties = props
	out.AdditionalProperties = nil
	if ap != nil {
		out.AdditionalProperties = &structural.SchemaOrBool{Bool: s.AdditionalProperties.Bool, Schema: ap}
	}
	return &out
}

// hasDefaultBelow reports whether a property kept by defaultsOnly has a
// default.
func hasDefaultBelow(props map[string]*structural.Schema) bool {
	for _, p := range props {
		if p.HasDefault() || p.Items != nil || p.AdditionalProperties != nil || len(p.Properties) > 0 {
			return true
		}
	}
	return false
}
