// Package crdschema holds the vocabulary shared by the packages of this
// module: the apiextensions.k8s.io/v1 CustomResourceDefinition types, the
// OpenAPI v3 schema type JSONSchemaProps, and Kubernetes-style field errors
// and paths. Package manifest reads JSON and YAML into these types and into
// the object form every package works on.
//
// The module does in-process what the Kubernetes API server
// (k8s.io/apiextensions-apiserver v0.37.2) does with the schema of a
// CustomResourceDefinition: structural checks (package structural), pruning
// (prune), defaulting (defaulting), OpenAPI validation (validation), CEL
// validation rules (celrules), ratcheting on updates (ratchet), OpenAPI
// publishing (openapi) and printer columns (printer). Package crd composes
// them: whole-CRD validation and the API server's request pipeline.
//
// # Objects
//
// Custom resources are plain map[string]any values, holding []any, string,
// int64, float64, bool and nil, exactly as the API server decodes a request
// body: integers that fit into int64 are int64, every other number is
// float64, so 1 and 1.0 stay apart. Package manifest produces that form
// from JSON or YAML as kubectl and the API server read them.
//
// # Errors
//
// Validation results are ErrorLists of *Error values whose Type, Field,
// BadValue and Detail, and whose Error text, are the same as the API
// server's field errors, so that a test can compare them with what kubectl
// prints. An ErrorList is not an error: ToAggregate turns it into one, nil
// for an empty list, with the text the API server gives the same errors.
// The constructors (Invalid, Required, ...) and Path build errors as the
// packages of this module do, for expectations in tests and for checks of
// one's own.
package crdschema
