package testserver

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/storage"
)

// versionView is a memStore as one served version sees it: objects are
// stored with the storage version's apiVersion and read with the served
// version's, which is the whole of the API server's conversion when a CRD's
// conversion strategy is None.
type versionView struct {
	*memStore
	served, stored string // apiVersions
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
	setAPIVersion(out, v.served)
	return nil
}

func (v versionView) Delete(ctx context.Context, key string, out runtime.Object, preconditions *storage.Preconditions,
	validateDeletion storage.ValidateObjectFunc, cachedExistingObject runtime.Object, opts storage.DeleteOptions) error {
	validate := func(ctx context.Context, obj runtime.Object) error {
		setAPIVersion(obj, v.served)
		return validateDeletion(ctx, obj)
	}
	if err := v.memStore.Delete(ctx, key, out, preconditions, validate, cachedExistingObject, opts); err != nil {
		return err
	}
	setAPIVersion(out, v.served)
	return nil
}

func (v versionView) Get(ctx context.Context, key string, opts storage.GetOptions, out runtime.Object) error {
	if err := v.memStore.Get(ctx, key, opts, out); err != nil {
		return err
	}
	setAPIVersion(out, v.served)
	return nil
}

func (v versionView) GetList(ctx context.Context, key string, opts storage.ListOptions, listObj runtime.Object) error {
	if err := v.memStore.GetList(ctx, key, opts, listObj); err != nil {
		return err
	}
	setAPIVersion(listObj, v.served)
	return nil
}

func (v versionView) GuaranteedUpdate(ctx context.Context, key string, destination runtime.Object, ignoreNotFound bool,
	preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc, cachedExistingObject runtime.Object) error {
	try := func(in runtime.Object, meta storage.ResponseMeta) (runtime.Object, *uint64, error) {
		setAPIVersion(in, v.served)
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
	setAPIVersion(destination, v.served)
	return nil
}

func (v versionView) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	w, err := v.memStore.Watch(ctx, key, opts)
	if err != nil {
		return nil, err
	}
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		if e.Type != watch.Bookmark {
			setAPIVersion(e.Object, v.served)
		}
		return e, true
	}), nil
}
