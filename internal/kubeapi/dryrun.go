package kubeapi

import (
	"context"
	"maps"

	"github.com/crdschema/crdschema/crd"
)

// Create runs res's create of body, and for a dry run (dryRun=All) what
// the API server's dry-run storage does instead of storing: it never
// reaches etcd, so etcd's refusal of a new object that carries a
// resourceVersion does not apply, and the object it returns is the one
// it was given, with the body's resourceVersion or none. body is not
// modified.
func Create(ctx context.Context, res *crd.Resource, body map[string]any, dryRun bool) (*crd.Result, error) {
	if !dryRun {
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
			if hasRV && rv != "" {
				m["resourceVersion"] = rv
			} else {
				delete(m, "resourceVersion")
			}
		}
	}
	return r, err
}
