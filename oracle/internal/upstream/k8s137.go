//go:build !k8s133 && !k8s134 && !k8s135 && !k8s136

package upstream

// The upstream API the oracle calls where it differs between Kubernetes
// releases; this file is for the default, v0.37 (go.mod). The files
// k8s13N.go, selected by the build tag k8s13N together with go.k8s13N.mod,
// provide the same for older releases (see README.md, "Older releases").

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/registry/rest"
)

// K8sRelease is the Kubernetes minor release whose API server code is built in.
const K8sRelease = "1.37"

// validateCreate is rest.ValidateCreate: the strategy's validation, then
// the ObjectMeta checks.
func validateCreate(ctx context.Context, obj runtime.Object, strategy rest.RESTCreateStrategy) field.ErrorList {
	return rest.ValidateCreate(ctx, obj, strategy)
}

// validateUpdate is rest.ValidateUpdate: the common ObjectMeta checks, then
// the strategy's validation.
func validateUpdate(ctx context.Context, obj, old runtime.Object, strategy rest.RESTUpdateStrategy) field.ErrorList {
	return rest.ValidateUpdate(ctx, obj, old, strategy)
}

// baseEnvSet is the CEL environment CRD validation compiles rules with.
func baseEnvSet() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
}
