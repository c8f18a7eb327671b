package objectcheck

import "github.com/crdschema/crdschema/structural"

// CutDown returns s reduced to the nodes at or above a node for which keep
// is true, for a walk that does nothing below the nodes it leaves out
// (defaulting, the list-type checks); nil when keep holds nowhere. The
// nodes kept are shallow copies: s is not modified.
//
// An object with both properties and additionalProperties (not
// structural, but New does not refuse it) keeps all its properties when
// it is kept: a property left out would be walked as an additional one.
func CutDown(s *structural.Schema, keep func(*structural.Schema) bool, depth int) *structural.Schema {
	if s == nil {
		return nil
	}
	if depth > 1000 {
		return s // too deep to trim: all of it
	}
	items := CutDown(s.Items, keep, depth+1)
	var ap *structural.Schema
	if s.AdditionalProperties != nil {
		ap = CutDown(s.AdditionalProperties.Schema, keep, depth+1)
	}
	keepAll := len(s.Properties) > 0 && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil
	var props map[string]*structural.Schema
	below := false // some property is kept for itself
	for k, p := range s.Properties {
		d := CutDown(p, keep, depth+1)
		below = below || d != nil
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
	if !keep(s) && items == nil && ap == nil && !below {
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
