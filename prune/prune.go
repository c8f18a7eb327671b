package prune

import (
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/structural"
)

// Prune removes from v, in place, every field that the schema s does not
// specify, and returns the paths of the removed fields, sorted, in the
// API server's notation ("spec.items[0].foo"). v is a JSON value of any
// type (a whole object, or a value inside one such as a default); the maps
// and lists inside it are modified: callers that need the original must
// pass a copy. isResourceRoot says that v is a whole Kubernetes object,
// whose root is treated like an embedded resource: apiVersion, kind and
// metadata are kept whatever the schema says (metadata is cleaned by the
// decoding of package crd's Pipeline instead).
//
// The rules are the API server's:
//
//   - below a node with x-kubernetes-preserve-unknown-fields, unknown
//     fields are kept, but pruning starts again inside every field that
//     has a schema (a property, or additionalProperties);
//   - a key that matches additionalProperties is kept; with
//     additionalProperties: false (no schema) its value's content is
//     removed (the fields of an object value, and those of objects in an
//     array value) and reported;
//   - apiVersion, kind and metadata of an embedded resource
//     (x-kubernetes-embedded-resource, or the root with isResourceRoot)
//     are kept, and never reported at the root;
//   - a nil s removes every field of obj.
func Prune(v any, s *structural.Schema, isResourceRoot bool) []string {
	return prune.Prune(v, s, isResourceRoot)
}

// PruneNulls removes, in place, every null map value of x whose schema
// (the property's, or else additionalProperties') exists, is not nullable
// and has no default. Such nulls would fail validation; the ones that have
// a default are left for defaulting to replace. List elements are never
// removed. This is the API server's decode-time null dropping.
func PruneNulls(x any, s *structural.Schema) {
	prune.PruneNulls(x, s)
}
