package fakeclient

import (
	"context"
	"slices"

	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/kubeapi"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Create creates obj. For a CRD's kind it runs the API server's create
// pipeline and fills obj with the object as created.
func (c *fakeClient) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	v, err := c.served(obj)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := c.other()
		if err != nil {
			return err
		}
		return inner.Create(ctx, obj, opts...)
	}
	o := &client.CreateOptions{}
	o.ApplyOptions(opts)
	body, err := c.body(v, obj)
	if err != nil {
		return err
	}
	dryRun := slices.Contains(o.DryRun, metav1.DryRunAll)
	r, err := kubeapi.Create(ctx, v.res, body, !dryRun)
	if err := kubeapi.ResultError(r, err, v.kind.resource, v.kind.gk, obj.GetName(), o.FieldValidation); err != nil {
		return err
	}
	out, err := c.storeCreate(ctx, v, v.trackUpdate(nil, r.Object, subMain, o.FieldManager), body, o.FieldManager, dryRun)
	if err != nil {
		return err
	}
	c.warn(v, r.Warnings, o.FieldValidation)
	out["apiVersion"] = v.gvk.GroupVersion().String()
	return c.fill(obj, out, v.gvk)
}

// body encodes obj as a request body of version v: the namespace of a
// cluster-scoped object is cleared, as the API server clears it.
func (c *fakeClient) body(v *version, obj client.Object) (map[string]any, error) {
	m, err := toMap(obj, v.gvk)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if !v.kind.namespaced {
		if md, ok := m["metadata"].(map[string]any); ok {
			delete(md, "namespace")
		}
	}
	return m, nil
}

func nameOf(objs ...map[string]any) string {
	for _, o := range objs {
		if md, ok := o["metadata"].(map[string]any); ok {
			if n, ok := md["name"].(string); ok && n != "" {
				return n
			}
		}
	}
	return ""
}

// toStored returns a copy of m (an object of any served version) as it is
// given to the store: with the storage version's apiVersion, and the
// resourceVersion rv the store expects ("" for a create) instead of the
// one crd gives a stored object (the store gives its own).
func (k *kind) toStored(m map[string]any, rv string) *unstructured.Unstructured {
	s := make(map[string]any, len(m))
	for key, val := range m {
		s[key] = val
	}
	s["apiVersion"] = k.storage.gvk.GroupVersion().String()
	if md, ok := s["metadata"].(map[string]any); ok {
		md2 := make(map[string]any, len(md))
		for key, val := range md {
			md2[key] = val
		}
		if rv == "" {
			delete(md2, "resourceVersion")
		} else {
			md2["resourceVersion"] = rv
		}
		s["metadata"] = md2
	}
	return &unstructured.Unstructured{Object: s}
}

// storeCreate keeps out, the object a create of body gives, in the
// wrapped store, and returns it as stored. A dry run keeps nothing, but
// an object of the same name still makes it fail, as it does in the API
// server's dry-run storage.
func (c *fakeClient) storeCreate(ctx context.Context, v *version, out, body map[string]any, manager string, dryRun bool) (map[string]any, error) {
	u := v.kind.toStored(out, "")
	if dryRun {
		if err := c.store.Get(ctx, client.ObjectKeyFromObject(u), u.DeepCopy()); err == nil {
			return nil, apierrors.NewAlreadyExists(v.kind.resource, nameOf(out, body))
		}
		return out, nil
	}
	if err := c.store.Create(ctx, u, &client.CreateOptions{FieldManager: manager}); err != nil {
		return nil, c.storeError(v, err, nameOf(out, body))
	}
	return u.Object, nil
}

// storeError maps an error of the wrapped store to the API server's, with the
// CRD's resource name.
func (c *fakeClient) storeError(v *version, err error, name string) error {
	switch {
	case apierrors.IsAlreadyExists(err):
		return apierrors.NewAlreadyExists(v.kind.resource, name)
	case apierrors.IsNotFound(err):
		return notFound(v.kind.resource, name)
	case apierrors.IsConflict(err):
		return apierrors.NewConflict(v.kind.resource, name, errObjectModified)
	}
	return err
}

type modifiedError struct{}

func (modifiedError) Error() string {
	return "the object has been modified; please apply your changes to the latest version and try again"
}

var errObjectModified = modifiedError{}

// Update replaces obj. For a CRD's kind it runs the API server's update
// pipeline: the status is kept from the stored object when the version has
// a status subresource.
func (c *fakeClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	v, err := c.served(obj)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := c.other()
		if err != nil {
			return err
		}
		return inner.Update(ctx, obj, opts...)
	}
	o := &client.UpdateOptions{}
	o.ApplyOptions(opts)
	return c.update(ctx, v, obj, subMain, o)
}

type subresource int

const (
	subMain subresource = iota
	subStatus
)

func (c *fakeClient) update(ctx context.Context, v *version, obj client.Object, sub subresource, o *client.UpdateOptions) error {
	if sub == subStatus && !v.status {
		return notFound(v.kind.resource, obj.GetName())
	}
	body, err := c.body(v, obj)
	if err != nil {
		return err
	}
	key := v.kind.key(obj)
	stored, err := c.getStored(ctx, v.kind, key)
	if err != nil {
		return err
	}
	out, err := c.write(ctx, v, body, stored, sub, o.FieldValidation, o.FieldManager, o.DryRun, false)
	if err != nil {
		return err
	}
	return c.fill(obj, out, v.gvk)
}

// write runs an update of body over stored and stores the result; it returns
// the object in v's version.
func (c *fakeClient) write(ctx context.Context, v *version, body map[string]any, stored *unstructured.Unstructured, sub subresource, fieldValidation, manager string, dryRun []string, applied bool) (map[string]any, error) {
	keepManagedFields(body, stored.Object)
	var r *crd.Result
	var err error
	if sub == subStatus {
		r, err = v.res.UpdateStatus(ctx, body, stored.Object)
	} else {
		r, err = v.res.Update(ctx, body, stored.Object)
	}
	name := nameOf(body, stored.Object)
	if err := kubeapi.ResultError(r, err, v.kind.resource, v.kind.gk, name, fieldValidation); err != nil {
		return nil, err
	}
	out := r.Object
	if !applied {
		out = v.trackUpdate(stored.Object, out, sub, manager)
	}
	if !slices.Contains(dryRun, metav1.DryRunAll) {
		u := v.kind.toStored(out, stored.GetResourceVersion())
		if err := c.storeUpdate(ctx, u, &client.UpdateOptions{FieldManager: manager}); err != nil {
			return nil, c.storeError(v, err, name)
		}
		out = u.Object
	}
	c.warn(v, r.Warnings, fieldValidation)
	out["apiVersion"] = v.gvk.GroupVersion().String()
	return out, nil
}

// keepManagedFields gives body the stored managedFields when it has none,
// as the API server keeps them when a request leaves them unset.
func keepManagedFields(body, stored map[string]any) {
	md, ok := body["metadata"].(map[string]any)
	if !ok {
		return
	}
	if _, set := md["managedFields"]; set {
		return
	}
	if smd, ok := stored["metadata"].(map[string]any); ok {
		if mf, ok := smd["managedFields"]; ok {
			md["managedFields"] = runtime.DeepCopyJSONValue(mf)
		}
	}
}

// Delete deletes obj; for a CRD's kind, in whichever version it is named.
func (c *fakeClient) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	v, err := c.served(obj)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := c.other()
		if err != nil {
			return err
		}
		return inner.Delete(ctx, obj, opts...)
	}
	u := v.kind.storageObject(v.kind.key(obj))
	if err := c.store.Delete(ctx, u, opts...); err != nil {
		return c.storeError(v, err, obj.GetName())
	}
	return nil
}

// DeleteAllOf deletes the objects of obj's kind that the options select.
func (c *fakeClient) DeleteAllOf(ctx context.Context, obj client.Object, opts ...client.DeleteAllOfOption) error {
	v, err := c.served(obj)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := c.other()
		if err != nil {
			return err
		}
		return inner.DeleteAllOf(ctx, obj, opts...)
	}
	o := &client.DeleteAllOfOptions{}
	o.ApplyOptions(opts)
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(v.gvk.GroupVersion().WithKind(v.kind.listKind))
	if err := c.List(ctx, list, &o.ListOptions); err != nil {
		return err
	}
	for i := range list.Items {
		item := &list.Items[i]
		if err := c.Delete(ctx, item, &o.DeleteOptions); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// Status returns the client of the status subresource.
func (c *fakeClient) Status() client.SubResourceWriter {
	return c.SubResource("status")
}

// SubResource returns the client of a subresource. For the CRDs' kinds,
// status and scale run the API server's pipeline.
func (c *fakeClient) SubResource(name string) client.SubResourceClient {
	s := &subResourceClient{c: c, name: name}
	if c.applier != nil {
		s.SubResourceClient = c.applier.SubResource(name)
	}
	return s
}
