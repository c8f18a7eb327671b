package costs

import (
	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
)

// An Option configures Explain and Runtime.
type Option func(*options)

type options struct {
	version crdschema.KubernetesVersion
}

// WithKubernetesVersion explains the costs as the API server of the
// Kubernetes release v estimates and limits them (the default is 1.37):
// its cost estimates, and its validation of the CRDs the suggested bounds
// make.
func WithKubernetesVersion(v crdschema.KubernetesVersion) Option {
	return func(o *options) { o.version = v }
}

// release returns the release opts select.
func release(opts []Option) crdschema.KubernetesVersion {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o.version
}

// releaseOption is the crd option of the release opts select.
func releaseOption(opts []Option) crd.Option {
	return crd.WithKubernetesVersion(release(opts))
}
