package crd

import (
	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/objectcheck"
	"github.com/crdschema/crdschema/validation"
)

// openAPIOnly makes validation.New compile a Validator that runs the
// OpenAPI checks alone: the request pipeline runs the object checks
// (embedded resources, list sets and maps) itself, where the API server's
// order puts them.
var openAPIOnly validation.Option = func(o *objectcheck.ValidatorOptions) { o.OpenAPIOnly = true }

// embeddedMeta checks the embedded resources of a request's object,
// skipped when the schema has no embedded resource: it would find nothing.
func (r *core) embeddedMeta(o map[string]any) crdschema.ErrorList {
	if !r.hasEmbedded {
		return nil
	}
	return objectcheck.EmbeddedMeta(nil, o, r.schema, false)
}

// listSetsAndMaps checks the list sets and maps of an object, with the
// schema cut down to the nodes at or above a list of type set or map
// (objectcheck.ListTypesOnly): the walk skips the parts of the object
// where it would find nothing.
func (r *core) listSetsAndMaps(o map[string]any) crdschema.ErrorList {
	r.prepareWalks()
	if r.listSchema == nil {
		return nil
	}
	return objectcheck.ListSetsAndMaps(nil, o, r.listSchema)
}
