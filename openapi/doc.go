// Package openapi publishes a version of a CustomResourceDefinition as the
// OpenAPI documents that the Kubernetes API server serves for it.
//
// V3 builds the OpenAPI v3.0 document the server serves at
// /openapi/v3/apis/<group>/<version> (for that one custom resource), and V2
// the OpenAPI v2 (Swagger 2.0) document that the server merges into
// /openapi/v2. Both are equal, as JSON values, to what the API server
// (k8s.io/apiextensions-apiserver) publishes:
//
//   - the kind's schema is published from the structural schema: defaults,
//     value validations and x-kubernetes extensions are kept,
//     x-kubernetes-int-or-string fields are unfolded to
//     anyOf: [{type: integer}, {type: string}], metadata refers to
//     ObjectMeta, apiVersion and kind are added, and so are apiVersion, kind
//     and metadata of every embedded resource;
//   - the schema carries x-kubernetes-group-version-kind and, when the
//     version has selectable fields, x-kubernetes-selectable-fields;
//   - a list kind (<Kind>List by default) is published beside the kind;
//   - the paths and operations depend on the scope and on the status and
//     scale subresources, with the server's operation IDs, tags, query
//     parameters and responses;
//   - the built-in definitions that the document refers to (ObjectMeta,
//     ListMeta, Status, DeleteOptions, Patch, autoscaling/v1 Scale, ...)
//     are included.
//
// V2 applies the server's lossy conversion to OpenAPI v2: allOf, anyOf,
// oneOf and not are dropped; a nullable field loses its type, items and
// properties and leaves its parent's required list; a field that preserves
// unknown fields loses items and properties, and its type if it is object;
// an array without items loses its type; a root that preserves unknown
// fields is published as a bare object; defaults are removed. Its query
// parameters are shared at document level under content-hash names, as the
// server shares them.
//
// In V3, a $ref that has siblings (a description) is written as
// allOf: [{$ref}] beside them, as the server writes it.
//
// The v2 document is a github.com/go-openapi/spec Swagger. The v3 document
// is a Document: small v3 types of this package that hold
// github.com/go-openapi/spec schemas, so that both documents share one
// schema type and marshal to exactly the server's JSON.
//
// Document.MarshalJSON (json.Marshal(doc)) writes the schemas itself, in
// one pass, byte for byte what encoding/json writes through go-openapi,
// which re-encodes every nested schema once per level of nesting; a schema
// with a keyword a published CRD schema never has goes to go-openapi. The
// golden documents of every release and FuzzPublish check the bytes against
// go-openapi's marshalling, FuzzAppendValue and FuzzAppendString the value
// and string writers against encoding/json. The bytes are those the API
// server serves, but for encoding/json's escapes of <, > and & in strings.
//
// The built-in definitions and parameter descriptions are facts about the
// Kubernetes API; zz_generated_static.go holds them and is written by
// tools/openapigen from documents that a real API server published.
package openapi

//go:generate go -C ../tools run ./openapigen -o ../openapi/zz_generated_static.go ../conformance/testdata/cases
//go:generate go -C ../tools run ./openapigen -release 1.33 -overlay ../conformance/testdata/releases/1.33 -next 1.34 -next-overlay ../conformance/testdata/releases/1.34 -o ../openapi/zz_generated_k133.go ../conformance/testdata/cases
//go:generate go -C ../tools run ./openapigen -release 1.34 -overlay ../conformance/testdata/releases/1.34 -next 1.35 -next-overlay ../conformance/testdata/releases/1.35 -o ../openapi/zz_generated_k134.go ../conformance/testdata/cases
//go:generate go -C ../tools run ./openapigen -release 1.35 -overlay ../conformance/testdata/releases/1.35 -next 1.36 -next-overlay ../conformance/testdata/releases/1.36 -o ../openapi/zz_generated_k135.go ../conformance/testdata/cases
//go:generate go -C ../tools run ./openapigen -release 1.36 -overlay ../conformance/testdata/releases/1.36 -o ../openapi/zz_generated_k136.go ../conformance/testdata/cases
