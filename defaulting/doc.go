// Package defaulting applies the defaults of a CRD's structural schema to
// custom resources, exactly as the Kubernetes API server does.
//
// Default fills in defaults top-down after decoding (see package prune,
// whose PruneNulls drops the nulls of fields that are not nullable and
// have no default, before). PruneDefaults prepares a schema for serving the way the API
// server does when it loads a CRD: every default is pruned and its
// embedded metadata cleaned in the context of the object around it.
//
// Checking a CRD's defaults (which needs the validator and CEL) is part of
// CRD validation, in package crd.
//
// Default modifies the object they are given, in place.
// Schemas are never modified, and defaults are always copied into
// objects, never shared with them.
package defaulting
