// Package prune removes from custom resources what their CRD's
// structural schema does not specify, exactly as the Kubernetes API server
// does when it decodes a request or reads an object from storage.
//
// Prune drops unknown fields (honouring x-kubernetes-preserve-unknown-fields,
// additionalProperties and embedded resources) and returns their paths in
// the API server's notation ("spec.items[0].foo"). PruneNulls drops the
// nulls that the schema does not allow and that no default will replace.
//
// The schema-dependent part of decoding a request body, these steps with
// the API server's handling of object metadata (of the object and of
// embedded resources, decoded as Kubernetes' ObjectMeta type), in the API
// server's order, is package crd's Pipeline.Decode.
//
// The functions of this package modify the objects they are given, in
// place: the caller owns the object (decode a fresh one per request, or
// copy it first). Schemas are never modified.
package prune
