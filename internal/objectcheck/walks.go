package objectcheck

import "github.com/crdschema/crdschema/structural"

// Has reports whether s or a node below it (through properties,
// additionalProperties and items, the nodes the walks of this package
// follow) satisfies f.
func Has(s *structural.Schema, f func(*structural.Schema) bool) bool {
	return has(s, f, 0)
}

func has(s *structural.Schema, f func(*structural.Schema) bool, depth int) bool {
	if s == nil || depth > 1000 {
		return false
	}
	if f(s) || has(s.Items, f, depth+1) {
		return true
	}
	if s.AdditionalProperties != nil && has(s.AdditionalProperties.Schema, f, depth+1) {
		return true
	}
	for _, p := range s.Properties {
		if has(p, f, depth+1) {
			return true
		}
	}
	return false
}

// IsEmbedded reports whether s is an embedded resource's.
func IsEmbedded(s *structural.Schema) bool { return s.XEmbeddedResource }

// IsSetOrMap reports whether s is a list of type set or map.
func IsSetOrMap(s *structural.Schema) bool {
	return s.XListType != nil && (*s.XListType == "set" || *s.XListType == "map")
}

// ListTypesOnly returns the part of s that ListSetsAndMaps uses: the nodes
// at or above a list of type set or map. The walk visits properties and
// additional properties alike and reports only at such lists, so that it
// reports with the result exactly what it reports with s. nil means s has
// no such list.
func ListTypesOnly(s *structural.Schema) *structural.Schema {
	return CutDown(s, IsSetOrMap, 0)
}
