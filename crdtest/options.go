package crdtest

import "github.com/crdschema/crdschema"

// An Option configures Run and RunFiles.
type Option func(*options)

type options struct {
	crds         []string
	featureGates string
	kubeVersion  crdschema.KubernetesVersion
}

// WithCRDs sets the files and directories (not searched recursively) whose
// CRD manifests the suites' crdName is looked up in. Without it, a suite in
// openshift/api's layout (<group>/<version>/tests/<crd name>/<suite>.yaml)
// takes the CRDs of <group>/<version>/zz_generated.crd-manifests, and any
// other suite the CRDs of its own directory.
func WithCRDs(paths ...string) Option {
	return func(o *options) { o.crds = append(o.crds, paths...) }
}

// WithFeatureGates sets the directory of FeatureGate manifests that decide
// which CRD variants a suite with featureGates runs against. Without it,
// the nearest payload-manifests/featuregates directory above the suite is
// used, as in openshift/api.
func WithFeatureGates(dir string) Option {
	return func(o *options) { o.featureGates = dir }
}

// WithKubernetesVersion runs the suites as the API server of the
// Kubernetes release v (the default is 1.37) runs them:
// its CEL environment, cost estimates and error texts (see
// crd.WithKubernetesVersion). openshift/api's CI runs its suites against
// an older release than the default.
func WithKubernetesVersion(v crdschema.KubernetesVersion) Option {
	return func(o *options) { o.kubeVersion = v }
}
