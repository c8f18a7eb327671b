package testserver

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/storage"
)

// versionView is a memStore as one served version sees it: objects are
// stored with the storage version's apiVersion and read with the served
// version's, which is the whole of the API server's conversion when a CRD's
// conversion strategy is None. A custom resource is read as the API server
// decodes it from etcd: pruned and defaulted with the CRD's current schemas
// (crd.Resource.ReadStored), so that an object stored before a CRD update
// reads as the new schema has it.
type versionView struct {
	*memStore
	served, stored string // apiVersions
	// read is the API server's reading of a stored custom resource in the
	// served version; nil for a built-in kind.
	read func(map[string]any) (map[string]any, error)
}

// asServed turns objects as stored into objects as the served version reads
// them.
func (v versionView) asServed(obj runtime.Object) error {
	if v.read == nil {
		setAPIVersion(obj, v.served)
		return nil
	}
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		if o.Object == nil {
			return nil
		}
		m, err := v.read(o.Object)
		if err != nil {
			return apierrors.NewInternalError(err)
		}
		o.Object = m
	case *unstructured.UnstructuredList:
		for i := range o.Items {
			m, err := v.read(o.Items[i].Object)
			if err != nil {
				return apierrors.NewInternalError(err)
			}
			o.Items[i].Object = m
		}
	}
	return nil
}

var _ storage.Interface = versionView{}

func setAPIVersion(obj runtime.Object, apiVersion string) {
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		if o.Object != nil {
			o.Object["apiVersion"] = apiVersion
		}
	case *unstructured.UnstructuredList:
		for i := range o.Items {
			o.Items[i].Object["apiVersion"] = apiVersion
		}
	}
}

func (v versionView) Create(ctx context.Context, key string, obj, out runtime.Object, ttl uint64) error {
	in := obj.DeepCopyObject()
	setAPIVersion(in, v.stored)
	if err := v.memStore.Create(ctx, key, in, out, ttl); err != nil {
		return err
	}
	return v.asServed(out)
}

func (v versionView) Delete(ctx context.Context, key string, out runtime.Object, preconditions *storage.Preconditions,
	validateDeletion storage.ValidateObjectFunc, cachedExistingObject runtime.Object, opts storage.DeleteOptions) error {
	validate := func(ctx context.Context, obj runtime.Object) error {
		if err := v.asServed(obj); err != nil {
			return err
		}
		return validateDeletion(ctx, obj)
	}
	if err := v.memStore.Delete(ctx, key, out, preconditions, validate, cachedExistingObject, opts); err != nil {
		return err
	}
	return v.asServed(out)
}

func (v versionView) Get(ctx context.Context, key string, opts storage.GetOptions, out runtime.Object) error {
	if err := v.memStore.Get(ctx, key, opts, out); err != nil {
		return err
	}
	return v.asServed(out)
}

func (v versionView) GetList(ctx context.Context, key string, opts storage.ListOptions, listObj runtime.Object) error {
	if err := v.memStore.GetList(ctx, key, opts, listObj); err != nil {
		return err
	}
	return v.asServed(listObj)
}

func (v versionView) GuaranteedUpdate(ctx context.Context, key string, destination runtime.Object, ignoreNotFound bool,
	preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc, cachedExistingObject runtime.Object) error {
	try := func(in runtime.Object, meta storage.ResponseMeta) (runtime.Object, *uint64, error) {
		if err := v.asServed(in); err != nil {
			return nil, nil, err
		}
		out, ttl, err := tryUpdate(in, meta)
		if err != nil {
			return nil, nil, err
		}
		out = out.DeepCopyObject()
		setAPIVersion(out, v.stored)
		return out, ttl, nil
	}
	if err := v.memStore.GuaranteedUpdate(ctx, key, destination, ignoreNotFound, preconditions, try, cachedExistingObject); err != nil {
		return err
	}
	return v.asServed(destination)
}

func (v versionView) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	w, err := v.memStore.Watch(ctx, key, opts)
	if err != nil {
		return nil, err
	}
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		if e.Type != watch.Bookmark {
			if err := v.asServed(e.Object); err != nil {
				return watch.Event{Type: watch.Error, Object: &err.(*apierrors.StatusError).ErrStatus}, true
			}
		}
		return e, true
	}), nil
}
