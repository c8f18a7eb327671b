// Package validation validates custom resources against the OpenAPI v3
// schema of their CustomResourceDefinition, exactly as the Kubernetes API
// server does: the same accepted and rejected values, and the same field
// errors, paths and texts.
//
// A Validator is compiled once from a structural schema (patterns and
// formats are resolved at construction) and then validates any number of
// objects, concurrently if wanted. Besides the schema keywords, the package
// checks the uniqueness rules of x-kubernetes-list-type set and map lists
// (ValidateListSetsAndMaps), the apiVersion, kind and metadata of embedded
// resources (ValidateEmbeddedMeta) and object metadata in general
// (ValidateObjectMeta, ValidateObjectMetaUpdate), with the Kubernetes name
// checks they rely on (IsDNS1123Subdomain, IsQualifiedName, ...).
package validation
