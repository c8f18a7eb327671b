package upgrade

import "github.com/crdschema/crdschema"

// An Option configures Check.
type Option func(*options)

type options struct {
	version crdschema.KubernetesVersion
}

// WithKubernetesVersion checks the upgrade as the API server of the
// Kubernetes release v would run it (the default is 1.37): its validation
// of the CRD update and of the stored objects' updates.
func WithKubernetesVersion(v crdschema.KubernetesVersion) Option {
	return func(o *options) { o.version = v }
}
