package prune

import "github.com/crdschema/crdschema/structural"

// PruneNulls removes, in place, every null map value of x whose schema
// (the property's, or else additionalProperties') exists, is not nullable
// and has no default. Such nulls would fail validation; the ones that have
// a default are left for defaulting to replace. List elements are never
// removed. This is the API server's decode-time null dropping.
func PruneNulls(x any, s *structural.Schema) {
	(&pruner{inPlace: true}).nullsCopy(x, s)
}
