// Package defaulting applies the defaults of a CRD's structural schema to
// custom resources, exactly as the Kubernetes API server does.
//
// Default fills in defaults top-down after decoding (see package prune);
// PruneNulls drops the nulls of fields that are not nullable and have no
// default. PruneDefaults prepares a schema for serving the way the API
// server does when it loads a CRD: every default is pruned and its
// embedded metadata cleaned in the context of the object around it.
//
// For checking a CRD's defaults (which needs the validator and CEL, in
// other packages), WalkDefaults visits every default in the API server's
// order with what that check needs: the default's path, the resource it
// belongs to, whether it specifies metadata, and a Surrounding that builds
// the object around it.
//
// Default and PruneNulls modify the object they are given, in place.
// Schemas are never modified, and defaults are always copied into
// objects, never shared with them.
package defaulting
