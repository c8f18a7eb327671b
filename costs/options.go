package costs

import (
	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/crdoptions"
)

// release returns the release opts select (crd.WithKubernetesVersion; the
// default is 1.37).
func release(opts []crd.Option) crdschema.KubernetesVersion {
	return crdoptions.Apply(opts).Version
}

// releaseOption is the crd option of the release opts select.
func releaseOption(opts []crd.Option) crd.Option {
	return crd.WithKubernetesVersion(release(opts))
}
