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
// with the schema cut down to the nodes at or above a list of type set or
// map (listTypesOnly): the walk skips the parts of the object where it
// would find nothing.
func (r *Resource) listSetsAndMaps(o map[string]any) crdschema.ErrorList {
	r.prepareWalks()
	if r.listSchema == nil {
		return nil
	}
	return validation.ValidateListSetsAndMaps(nil, o, r.listSchema)
}

// listTypesOnly returns the part of s that
// validation.ValidateListSetsAndMaps uses: the nodes at or above a list of
// type set or map. The walk visits properties and additional properties
// alike and reports only at such lists, so that it reports with the
// result exactly what it reports with s. nil means s has no such list.
func listTypesOnly(s *structural.Schema, depth int) *structural.Schema {
	return cutDown(s, isSetOrMap, depth)
}
