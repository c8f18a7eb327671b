package defaulting

import (
	"sort"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// Site is a schema node with a default, as the API server's validation of
// defaults visits it (see WalkDefaults).
type Site struct {
	// Path is the path of the node in the schema, such as
	// openAPIV3Schema.properties[spec].items; its default is at
	// Path.Child("default").
	Path *crdschema.Path
	// Schema is the node. Its default is Schema.Default.Value.
	Schema *structural.Schema
	// Root is the resource the node belongs to: the closest enclosing
	// embedded resource, or the walk's root. The object built by
	// Surrounding is an instance of Root, to be coerced as a resource root
	// (prune.Coerce with isResourceRoot true).
	Root *structural.Schema
	// IsResourceRoot is true when Schema is Root.
	IsResourceRoot bool
	// Embedded is true when the node is an embedded resource: it has
	// x-kubernetes-embedded-resource, or it is the root of a walk with
	// isResourceRoot.
	Embedded bool
	// InsideMeta is true when the node specifies (or lies below) the
	// apiVersion, kind or metadata of Root. Such defaults are checked in
	// their surrounding object; the others on their own.
	InsideMeta bool
	// Surrounding places the default inside an object rooted at Root,
	// with apiVersion "validation/v1" and kind "Validation".
	Surrounding Surrounding
}

// Validation type meta: the API server checks defaults of metadata inside
// an object of this made-up kind.
const (
	ValidationAPIVersion = "validation/v1"
	ValidationKind       = "Validation"
)

// WalkDefaults calls visit for every node of s that has a default, in the
// order in which the API server validates defaults at CRD time: a node,
// then its items, then its properties (by name; upstream uses map order).
// It does not descend into additionalProperties, where defaults are not
// allowed. isResourceRoot says that s is the schema of a whole resource,
// whose root is treated as an embedded resource. The walk stops when
// visit returns false.
func WalkDefaults(pth *crdschema.Path, s *structural.Schema, isResourceRoot bool, visit func(Site) bool) {
	if s == nil {
		return
	}
	w := walker{top: s, topEmbedded: isResourceRoot, visit: visit}
	sur := Surrounding{}.WithTypeMeta(ValidationAPIVersion, ValidationKind)
	w.walk(pth, s, s, sur, false)
}

type walker struct {
	top         *structural.Schema
	topEmbedded bool
	visit       func(Site) bool
}

// walk visits s and its descendants; it returns false to stop.
func (w *walker) walk(pth *crdschema.Path, s, root *structural.Schema, sur Surrounding, insideMeta bool) bool {
	if s == nil {
		return true
	}
	embedded := s.XEmbeddedResource || (s == w.top && w.topEmbedded)
	if s.XEmbeddedResource {
		insideMeta = false
		sur = Surrounding{}.WithTypeMeta(ValidationAPIVersion, ValidationKind)
		root = s
	}
	if prune.HasDefault(s) {
		site := Site{
			Path:           pth,
			Schema:         s,
			Root:           root,
			IsResourceRoot: s == root,
			Embedded:       embedded,
			InsideMeta:     insideMeta,
			Surrounding:    sur,
		}
		if !w.visit(site) {
			return false
		}
	}
	if s.Items != nil && !w.walk(pth.Child("items"), s.Items, root, sur.Index(), insideMeta) {
		return false
	}
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rootLike := embedded
	for _, k := range keys {
		sub := insideMeta
		if rootLike && (k == "metadata" || k == "apiVersion" || k == "kind") {
			sub = true
		}
		if !w.walk(pth.Child("properties").Key(k), s.Properties[k], root, sur.Child(k), sub) {
			return false
		}
	}
	return true
}
