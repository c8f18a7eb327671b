// Package objectmeta models the API server's handling of object metadata
// in custom resources: ObjectMeta decoding (GetObjectMeta), which drops
// unknown fields and fails with the API server's texts on values of the
// wrong type, writing it back (SetObjectMeta), and the coercion of the
// apiVersion, kind and metadata of embedded resources (Coerce). Package
// prune's Decoder, CRD validation of defaults (package crd) and the pruning
// of defaults (package defaulting) use it.
package objectmeta
