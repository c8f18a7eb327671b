package crd

import (
	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// structuralHas reports whether s or a node below it (through properties,
// additionalProperties and items, the nodes the object walks of package
// validation follow) satisfies f.
func structuralHas(s *structural.Schema, f func(*structural.Schema) bool, depth int) bool {
	if s == nil || depth > 1000 {
		return false
	}
	if f(s) || structuralHas(s.Items, f, depth+1) {
		return true
	}
	if s.AdditionalProperties != nil && structuralHas(s.AdditionalProperties.Schema, f, depth+1) {
		return true
	}
	for _, p := range s.Properties {
		if structuralHas(p, f, depth+1) {
			return true
		}
	}
	return false
}

func isEmbedded(s *structural.Schema) bool { return s.XEmbeddedResource }

func isSetOrMap(s *structural.Schema) bool {
	return s.XListType != nil && (*s.XListType == "set" || *s.XListType == "map")
}

// embeddedMeta is validation.ValidateEmbeddedMeta of a request's object,
// skipped when the schema has no embedded resource: it would find nothing.
func (r *Resource) embeddedMeta(o map[string]any) crdschema.ErrorList {
	if !r.hasEmbedded {
		return nil
	}
	return validation.ValidateEmbeddedMeta(nil, o, r.schema, false)
}

// listSetsAndMaps is validation.ValidateListSetsAndMaps of an object,
// skipped when the schema has no list of type set or map: it would find
// nothing.
func (r *Resource) listSetsAndMaps(o map[string]any) crdschema.ErrorList {
	if !r.hasSetsOrMaps {
		return nil
	}
	return validation.ValidateListSetsAndMaps(nil, o, r.schema)
}
