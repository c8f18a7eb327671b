package openapi

import (
	"reflect"
	"strings"

	"github.com/go-openapi/spec"

	"github.com/crdschema/crdschema/internal/release"
)

// builtins are the facts of one Kubernetes release's API that documents
// use: the built-in definitions and the query parameters of requests.
// Each release's are generated from documents its API server published
// (zz_generated_static.go for 1.37, zz_generated_k13N.go for the others).
// The v2 definitions are the v3 ones as v2 writes them (v2Schema).
type builtins struct {
	v3         func(name string) (spec.Schema, bool)
	parameters func(options string) []queryParameter
}

var builtinsByRelease = map[release.Minor]*builtins{
	33: {builtinDefinitionV3K133, optionParametersK133},
	34: {builtinDefinitionV3K134, optionParametersK134},
	35: {builtinDefinitionV3K135, optionParametersK135},
	36: {builtinDefinitionV3K136, optionParametersK136},
	37: {builtinDefinitionV3, optionParameters},
}

// builtins returns the facts of r's release.
func (r *resource) builtins() *builtins {
	if b := builtinsByRelease[r.release]; b != nil {
		return b
	}
	return builtinsByRelease[release.Default]
}

// v2Schema turns the v3 schema of a built-in definition into its v2
// schema: without defaults (v2 documents prune them), with references to
// #/definitions/ and without the allOf that v3 wraps a described
// reference in. tools/openapigen checks that every release's published v2
// definitions are exactly that.
func v2Schema(s *spec.Schema) {
	s.Default = nil
	if len(s.AllOf) == 1 {
		bare := s.AllOf[0]
		ref := bare.Ref
		bare.Ref = spec.Ref{}
		if reflect.DeepEqual(bare, spec.Schema{}) {
			s.Ref, s.AllOf = ref, nil
		}
	}
	if r := s.Ref.String(); r != "" {
		s.Ref = spec.MustCreateRef(v2RefPrefix + strings.TrimPrefix(r, v3RefPrefix))
	}
	for k, p := range s.Properties {
		v2Schema(&p)
		s.Properties[k] = p
	}
	for i := range s.AllOf {
		v2Schema(&s.AllOf[i])
	}
	if s.Items != nil && s.Items.Schema != nil {
		v2Schema(s.Items.Schema)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		v2Schema(s.AdditionalProperties.Schema)
	}
}
