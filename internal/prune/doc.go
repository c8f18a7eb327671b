// Package prune is the implementation of package prune (Prune and
// PruneNulls) and of the decoding of custom resources by package crd's
// Pipeline (Decoder). It removes from custom resources what their CRD's
// structural schema does not specify, exactly as the Kubernetes API server
// does when it decodes a request or reads an object from storage.
//
// Prune drops unknown fields (honouring x-kubernetes-preserve-unknown-fields,
// additionalProperties and embedded resources) and returns their paths in
// the API server's notation ("spec.items[0].foo"). PruneNulls drops the
// nulls that the schema does not allow and that no default will replace.
//
// Decoder puts these steps together with the API server's handling of
// object metadata, in the API server's order: it is the schema-dependent
// part of decoding a request body, before defaulting (package defaulting)
// and validation. Metadata (of the object and of embedded resources) is
// decoded as Kubernetes' ObjectMeta type, which drops unknown fields
// (reported as, for example, "metadata.clusterName"), fails with the API
// server's error text on values of the wrong type, renders timestamps in
// UTC with second precision, and is written back.
//
// The functions of this package modify the objects they are given, in
// place: the caller owns the object (decode a fresh one per request, or
// copy it first). Schemas are never modified, and a Decoder is safe for
// concurrent use.
package prune
