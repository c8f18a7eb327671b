//go:build k8s135

package upstream

// Upstream API differences of v0.35 (go.k8s135.mod); see k8s137.go.

import (
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apiserver/pkg/cel/environment"
)

const K8sRelease = "1.35"

// validatePathSegment: rest.BeforeCreate/BeforeUpdate of v0.35 validate
// names with path.ValidatePathSegmentName.
var validatePathSegment = path.ValidatePathSegmentName

func baseEnvSet() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
}
