// Package manifest reads Kubernetes manifests, JSON or YAML, into the
// values the rest of this module works on, as the API server receives
// them from kubectl apply: objects (UnmarshalObject), CustomResourceDefinitions
// (UnmarshalCRD) and multi-document streams (Decoder).
//
// # YAML
//
// A YAML document reads as sigs.k8s.io/yaml reads it for kubectl: YAML 1.1
// scalars (yes, no, on, off, y and n are booleans, as keys too, where
// they become "true" and "false"), numbers as encoding/json writes the
// float64 or integer YAML made of them (1.0 is the integer 1, 1e3 the
// integer 1000), anchors, aliases and << merge keys expanded, a repeated
// key's last value kept. A stream splits into documents where a line
// starts with "---" (followed by nothing but spaces or a comment);
// documents holding nothing, or null, are skipped.
//
// # JSON
//
// Input whose first character after white space is '{' or '[' is one
// JSON document, read as the API server reads a request body
// (sigs.k8s.io/json): case-sensitive keys, integers that fit into int64
// as int64, every other number as float64, a repeated key's last value
// kept.
//
// # Objects
//
// Objects are map[string]any values holding []any, string, int64,
// float64, bool and nil.
package manifest
