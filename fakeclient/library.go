package fakeclient

// The calls into the crdschema library are kept in this file, so that changes
// of its API touch one place.

import (
	"context"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
)

// validateCRD reports what the API server of the Kubernetes release
// version would refuse in def, as it creates it.
func validateCRD(ctx context.Context, def *crdschema.CustomResourceDefinition, version crdschema.KubernetesVersion, cache *celrules.Cache) crdschema.ErrorList {
	return crd.Validate(ctx, def, crd.WithKubernetesVersion(version), crd.WithCache(cache))
}

// newCompileCache returns a cache of compiled CEL rules to share between
// the CRDs of a client.
func newCompileCache() *celrules.Cache { return new(celrules.Cache) }

// aggregate renders errs as Kubernetes' aggregate error does.
func aggregate(errs crdschema.ErrorList) string {
	if err := errs.ToAggregate(); err != nil {
		return err.Error()
	}
	return ""
}

// readCRDs decodes every CustomResourceDefinition of a YAML or JSON stream.
func readCRDs(data []byte) ([]*crdschema.CustomResourceDefinition, error) {
	return crdschema.ReadCRDs(data)
}

// unmarshalCRD decodes one CRD from JSON.
func unmarshalCRD(data []byte) (*crdschema.CustomResourceDefinition, error) {
	def, _, err := crdschema.UnmarshalCRD(data)
	return def, err
}

// decodeObject decodes a request body with Kubernetes' number model.
func decodeObject(data []byte) (map[string]any, error) {
	return crdschema.UnmarshalObject(data)
}
