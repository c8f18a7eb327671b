package fakeclient

// The calls into the crdschema library are kept in this file, so that changes
// of its API touch one place.

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
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

// readCRDs decodes every CustomResourceDefinition of a YAML or JSON
// stream, skipping objects of other kinds.
func readCRDs(data []byte) ([]*crdschema.CustomResourceDefinition, error) {
	dec := manifest.NewDecoder(bytes.NewReader(data))
	var out []*crdschema.CustomResourceDefinition
	for {
		doc, err := dec.Decode()
		if doc == nil {
			if err == io.EOF {
				return out, nil
			}
			return nil, err
		}
		if err != nil {
			return nil, err
		}
		if doc.Object["kind"] != "CustomResourceDefinition" {
			continue
		}
		def, _, err := manifest.UnmarshalCRD(doc.JSON)
		if err != nil {
			return nil, fmt.Errorf("document %d (line %d): %w", doc.Index, doc.Line, err)
		}
		out = append(out, def)
	}
}

// unmarshalCRD decodes one CRD from JSON.
func unmarshalCRD(data []byte) (*crdschema.CustomResourceDefinition, error) {
	def, _, err := manifest.UnmarshalCRD(data)
	return def, err
}

// decodeObject decodes a request body with Kubernetes' number model.
func decodeObject(data []byte) (map[string]any, error) {
	return manifest.UnmarshalObject(data)
}
