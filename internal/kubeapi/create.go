package kubeapi

import (
	"context"
	"maps"

	"github.com/crdschema/crdschema/crd"
)

// Create runs res's create of body as the API server's storage takes it.
// Only etcd's Create (a POST that is not a dry run: etcdCreate) refuses
// a new object that carries a resourceVersion. Every other create keeps
// the body's resourceVersion, or none: a dry run returns the object as
// it was given, and a create through an apply or an update reaches etcd
// through its update, which replaces the resourceVersion. body is not
// modified.
func Create(ctx context.Context, res *crd.Resource, body map[string]any, etcdCreate bool) (*crd.Result, error) {
	if etcdCreate {
		return res.Create(ctx, body)
	}
	md, _ := body["metadata"].(map[string]any)
	rv, hasRV := md["resourceVersion"].(string)
	if hasRV {
		md = maps.Clone(md)
		delete(md, "resourceVersion")
		body = maps.Clone(body)
		body["metadata"] = md
	}
	r, err := res.Create(ctx, body)
	if r != nil {
		if m, ok := r.Object["metadata"].(map[string]any); ok {
			if rv != "" {
				m["resourceVersion"] = rv
			} else {
				delete(m, "resourceVersion")
			}
		}
	}
	return r, err
}
