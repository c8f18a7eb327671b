//go:build k8s136

package upstream

// Upstream API differences of v0.36 (go.k8s136.mod); see k8s137.go.

import (
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apiserver/pkg/cel/environment"
)

const K8sRelease = "1.36"

// validatePathSegment is rest's validatePathSegment of v0.36.
func validatePathSegment(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

func baseEnvSet() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
}
