package openapi

import (
	"github.com/go-openapi/spec"

	"github.com/crdschema/crdschema/internal/release"
)

// builtins are the facts of one Kubernetes release's API that documents
// use: the built-in definitions and the query parameters of requests.
// Each release's are generated from documents its API server published
// (zz_generated_static.go for 1.37, zz_generated_k13N.go for the others).
type builtins struct {
	references func(name string) []string
	v2, v3     func(name string) (spec.Schema, bool)
	parameters func(options string) []queryParameter
}

var builtinsByRelease = map[release.Minor]*builtins{
	33: {builtinReferencesK133, builtinDefinitionV2K133, builtinDefinitionV3K133, optionParametersK133},
	34: {builtinReferencesK134, builtinDefinitionV2K134, builtinDefinitionV3K134, optionParametersK134},
	35: {builtinReferencesK135, builtinDefinitionV2K135, builtinDefinitionV3K135, optionParametersK135},
	36: {builtinReferencesK136, builtinDefinitionV2K136, builtinDefinitionV3K136, optionParametersK136},
	37: {builtinReferences, builtinDefinitionV2, builtinDefinitionV3, optionParameters},
}

// builtins returns the facts of r's release.
func (r *resource) builtins() *builtins {
	if b := builtinsByRelease[r.release]; b != nil {
		return b
	}
	return builtinsByRelease[release.Default]
}
