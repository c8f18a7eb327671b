//go:build k8s133

package upstream

// Upstream API differences of v0.33 (go.k8s133.mod); see k8s137.go.

import (
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apiserver/pkg/cel/environment"
)

const K8sRelease = "1.33"

// validatePathSegment: rest.BeforeCreate/BeforeUpdate of v0.33 validate
// names with path.ValidatePathSegmentName.
var validatePathSegment = path.ValidatePathSegmentName

// baseEnvSet: before v0.35 MustBaseEnvSet took a strictCost flag; CRD
// validation always passes true.
func baseEnvSet() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion(), true)
}
