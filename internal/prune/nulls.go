package prune

import "github.com/crdschema/crdschema/structural"

// PruneNulls removes, in place, every null map value of x whose schema
// (the property's, or else additionalProperties') exists, is not nullable
// and has no default. Such nulls would fail validation; the ones that have
// a default are left for defaulting to replace. List elements are never
// removed. This is the API server's decode-time null dropping.
func PruneNulls(x any, s *structural.Schema) {
	if s == nil {
		// Without a schema no null can be removed anywhere below.
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			fs := fieldSchema(k, s)
			if fs == nil {
				continue
			}
			if v == nil {
				if !fs.Nullable && !fs.HasDefault() {
					delete(x, k)
				}
				continue
			}
			PruneNulls(v, fs)
		}
	case []any:
		if s.Items == nil {
			return
		}
		for _, v := range x {
			PruneNulls(v, s.Items)
		}
	}
}

// fieldSchema returns the schema of the field k of an object with schema
// s: its property schema, or else the additionalProperties schema.
func fieldSchema(k string, s *structural.Schema) *structural.Schema {
	if ps, ok := s.Properties[k]; ok {
		return ps
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Schema
	}
	return nil
}
