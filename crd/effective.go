package crd

import "github.com/crdschema/crdschema"

// VersionSchema returns the openAPIV3Schema of the named version of def as
// the API server uses it, with an explicit null default or example
// dropped (the API server decodes them as absent), and the path under which
// CRD validation reports errors in it: spec.validation.openAPIV3Schema when
// all versions share one schema (always for a single version), otherwise
// spec.versions[i].schema.openAPIV3Schema. It returns nils when def has no
// such version or the version has no schema.
//
// def is not modified; the schema may be def's own, so treat it as
// read-only.
func VersionSchema(def *crdschema.CustomResourceDefinition, version string) (*crdschema.JSONSchemaProps, *crdschema.Path) {
	if def == nil {
		return nil, nil
	}
	in := toInternal(def, nil)
	v, p := in.spec.schemaForVersion(version)
	if v == nil || v.OpenAPIV3Schema == nil {
		return nil, nil
	}
	return v.OpenAPIV3Schema, p.Child("openAPIV3Schema")
}
