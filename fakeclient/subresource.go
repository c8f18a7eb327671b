package fakeclient

import (
	"context"
	"fmt"
	"reflect"

	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/kubeapi"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// subResourceClient serves the status and scale subresources of the CRDs'
// kinds and passes the rest to the wrapped fake client.
type subResourceClient struct {
	// SubResourceClient provides Apply, in controller-runtime releases
	// that have it (see crversions.go); the other methods are the type's
	// own.
	client.SubResourceClient
	c    *fakeClient
	name string
}

func (s *subResourceClient) version(obj client.Object) (*version, error) {
	v, err := s.c.served(obj)
	if err != nil || v == nil {
		return v, err
	}
	switch s.name {
	case "status":
		if !v.status {
			return nil, notFound(v.kind.resource, obj.GetName())
		}
	case "scale":
		if v.scale == nil {
			return nil, notFound(v.kind.resource, obj.GetName())
		}
	default:
		return nil, notFound(v.kind.resource, obj.GetName())
	}
	return v, nil
}

// Get reads a subresource: for the CRDs' kinds, the scale.
func (s *subResourceClient) Get(ctx context.Context, obj, sub client.Object, opts ...client.SubResourceGetOption) error {
	v, err := s.version(obj)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := s.c.other()
		if err != nil {
			return err
		}
		return inner.SubResource(s.name).Get(ctx, obj, sub, opts...)
	}
	if s.name != "scale" {
		return apierrors.NewMethodNotSupported(v.kind.resource, "get "+s.name)
	}
	stored, err := s.c.getStored(ctx, v.kind, v.kind.key(obj))
	if err != nil {
		return err
	}
	cur, err := v.read(stored.Object)
	if err != nil {
		return err
	}
	sc, err := v.res.GetScale(cur)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	return toScale(sc, sub)
}

// toScale copies a library Scale into sub, an autoscaling/v1 Scale or an
// unstructured object.
func toScale(sc *crd.Scale, sub runtime.Object) error {
	m, err := toMapAny(sc)
	if err != nil {
		return err
	}
	m["apiVersion"], m["kind"] = "autoscaling/v1", "Scale"
	return (&fakeClient{returnManagedFields: true}).fill(sub, m, autoscalingv1.SchemeGroupVersion.WithKind("Scale"))
}

// Create is not served for the CRDs' subresources.
func (s *subResourceClient) Create(ctx context.Context, obj, sub client.Object, opts ...client.SubResourceCreateOption) error {
	v, err := s.version(obj)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := s.c.other()
		if err != nil {
			return err
		}
		return inner.SubResource(s.name).Create(ctx, obj, sub, opts...)
	}
	return apierrors.NewMethodNotSupported(v.kind.resource, "create "+s.name)
}

// Update writes a subresource: the status of obj, or the scale given with
// client.WithSubResourceBody.
func (s *subResourceClient) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	v, err := s.version(obj)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := s.c.other()
		if err != nil {
			return err
		}
		return inner.SubResource(s.name).Update(ctx, obj, opts...)
	}
	o := &client.SubResourceUpdateOptions{}
	o.ApplyOptions(opts)
	if s.name == "status" {
		body := obj
		if o.SubResourceBody != nil {
			body = o.SubResourceBody
		}
		return s.c.update(ctx, v, body, subStatus, &o.UpdateOptions)
	}
	return s.c.updateScale(ctx, v, obj, o)
}

func (c *fakeClient) updateScale(ctx context.Context, v *version, obj client.Object, o *client.SubResourceUpdateOptions) error {
	if o.SubResourceBody == nil {
		return apierrors.NewBadRequest("missing SubResourceBody")
	}
	m, err := toMapAny(o.SubResourceBody)
	if err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	sc := &crd.Scale{}
	if err := fromMap(m, sc); err != nil {
		return apierrors.NewBadRequest(fmt.Sprintf("decoding the scale: %v", err))
	}
	return c.writeScale(ctx, v, obj, sc, o.SubResourceBody, o.FieldManager, o.DryRun)
}

// writeScale writes the scale sc of obj through the API server's pipeline,
// and fills out (when not nil) with the scale and obj with the object
// stored.
func (c *fakeClient) writeScale(ctx context.Context, v *version, obj client.Object, sc *crd.Scale, out runtime.Object, manager string, dryRun []string) error {
	stored, err := c.getStored(ctx, v.kind, v.kind.key(obj))
	if err != nil {
		return err
	}
	r, err := v.res.UpdateScale(ctx, sc, stored.Object)
	if err := kubeapi.ResultError(r, err, v.kind.resource, v.kind.gk, obj.GetName(), ""); err != nil {
		return err
	}
	u := v.kind.toStored(r.Object, stored.GetResourceVersion())
	if err := c.storeUpdate(ctx, u, &client.UpdateOptions{FieldManager: manager, DryRun: dryRun}); err != nil {
		return c.storeError(v, err, obj.GetName())
	}
	cur, err := v.read(u.Object)
	if err != nil {
		return err
	}
	if out != nil {
		sc, err := v.res.GetScale(cur)
		if err != nil {
			return apierrors.NewInternalError(err)
		}
		if err := toScale(sc, out); err != nil {
			return err
		}
	}
	return c.fill(obj, cur, v.gvk)
}

// patchScale patches the scale subresource (JSON and merge patches): the
// patch applies to the current autoscaling/v1 Scale, and the result is
// written as an update of the scale.
func (c *fakeClient) patchScale(ctx context.Context, v *version, obj client.Object, patch client.Patch, o *client.SubResourcePatchOptions) error {
	if patch == nil {
		return apierrors.NewBadRequest("missing patch")
	}
	pt := patch.Type()
	if pt != types.JSONPatchType && pt != types.MergePatchType {
		return unsupportedPatch()
	}
	var body client.Object = obj
	if o.SubResourceBody != nil {
		body = o.SubResourceBody
	}
	data, err := patch.Data(body)
	if err != nil {
		return err
	}
	stored, err := c.getStored(ctx, v.kind, v.kind.key(obj))
	if err != nil {
		return err
	}
	cur, err := v.read(stored.Object)
	if err != nil {
		return err
	}
	sc, err := v.res.GetScale(cur)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	m, err := toMapAny(sc)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	m["apiVersion"], m["kind"] = "autoscaling/v1", "Scale"
	patched, err := applyPatch(pt, m, data)
	if err != nil {
		return err
	}
	next := &crd.Scale{}
	if err := fromMap(patched, next); err != nil {
		return apierrors.NewBadRequest(fmt.Sprintf("decoding the patched scale: %v", err))
	}
	var out runtime.Object
	if o.SubResourceBody != nil {
		out = o.SubResourceBody
	}
	return c.writeScale(ctx, v, obj, next, out, o.FieldManager, o.DryRun)
}

// Patch patches a subresource: the status or the scale (JSON and merge
// patches).
func (s *subResourceClient) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	v, err := s.version(obj)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := s.c.other()
		if err != nil {
			return err
		}
		return inner.SubResource(s.name).Patch(ctx, obj, patch, opts...)
	}
	o := &client.SubResourcePatchOptions{}
	o.ApplyOptions(opts)
	if s.name == "scale" {
		return s.c.patchScale(ctx, v, obj, patch, o)
	}
	if s.name != "status" {
		return apierrors.NewMethodNotSupported(v.kind.resource, "patch "+s.name)
	}
	body := obj
	if o.SubResourceBody != nil {
		body = o.SubResourceBody
	}
	return s.c.patch(ctx, v, body, patch, subStatus, &o.PatchOptions)
}

// applySubResource applies a status apply configuration (server-side
// apply): SubResource(name).Apply, in controller-runtime releases that have
// it (see crversions.go). args are the hook's, for the inner client.
func (c *fakeClient) applySubResource(ctx context.Context, name string, ac runtime.ApplyConfiguration, o client.ApplyOptions, args []reflect.Value) error {
	u, err := applyConfigToUnstructured(ac)
	if err != nil {
		return err
	}
	s := &subResourceClient{c: c, name: name}
	v, err := s.version(u)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := c.other()
		if err != nil {
			return err
		}
		return callInnerSubResourceApply(inner.SubResource(name), args)
	}
	if name != "status" {
		return apierrors.NewMethodNotSupported(v.kind.resource, "apply "+name)
	}
	po := &client.PatchOptions{Raw: o.AsPatchOptions()}
	po.Force = o.Force
	po.FieldManager = o.FieldManager
	po.DryRun = o.DryRun
	if err := c.apply(ctx, v, u, subStatus, po); err != nil {
		return err
	}
	return copyInto(u, ac)
}
