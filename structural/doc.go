// Package structural is the structural form of a CustomResourceDefinition
// schema and the checks the Kubernetes API server runs on CRD schemas.
//
// A structural schema specifies the shape of every value (type,
// properties, items, additionalProperties and the x-kubernetes extensions)
// outside of the logical junctors allOf, anyOf, oneOf and not, which may
// only validate. New converts a crdschema.JSONSchemaProps into a Schema;
// Validate reports where it breaks the structural rules; ValidateProps
// reports the other restrictions the API server applies to a CRD's
// openAPIV3Schema. All three report errors with the API server's field
// paths and texts, so that
//
//	s, err := structural.New(props)
//	errs := structural.Validate(crdschema.NewPath("spec", "validation", "openAPIV3Schema"), s, Options{})
//
// gives the errors that kubectl apply shows for the same CRD.
// ValidateProps checks the rules' own fields; compiling them and checking
// their cost is package crd's business (with package celrules).
// Errors that show a schema or a rule as their value print it as the API
// server does, with its internal Go types.
//
// Schema.FieldPath resolves the field paths of x-kubernetes-validations
// (fieldPath), selectable fields and the scale subresource against a
// Schema. A Schema converts back with ToJSONSchemaProps; Unfold derives
// the variant with the int-or-string patterns spelt out; Walk visits it.
//
// A Schema is not modified by anything in this package once built, and is
// safe for concurrent use; functions that derive a schema return a copy.
package structural
