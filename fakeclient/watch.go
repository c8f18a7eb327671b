package fakeclient

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Watch watches objects. For a CRD's kind, events carry the objects read in
// the requested version, filtered by the field selector.
func (c *fakeClient) Watch(ctx context.Context, list client.ObjectList, opts ...client.ListOption) (watch.Interface, error) {
	v, err := c.servedList(list)
	if err != nil || v == nil {
		if err != nil {
			return nil, err
		}
		inner, err := c.other()
		if err != nil {
			return nil, err
		}
		return inner.Watch(ctx, list, opts...)
	}
	o := &client.ListOptions{}
	o.ApplyOptions(opts)
	ff, err := c.newFieldFilter(v, o.FieldSelector)
	if err != nil {
		return nil, err
	}
	stored := &unstructured.UnstructuredList{}
	stored.SetGroupVersionKind(v.kind.storage.gvk.GroupVersion().WithKind(v.kind.listKind))
	inner := &client.ListOptions{Namespace: o.Namespace, LabelSelector: o.LabelSelector}
	if !v.kind.namespaced {
		inner.Namespace = ""
	}
	w, err := c.store.Watch(ctx, stored, inner)
	if err != nil {
		return nil, err
	}
	_, unstructuredList := list.(*unstructured.UnstructuredList)
	conv := func(obj runtime.Object) (runtime.Object, bool, error) {
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return obj, true, nil
		}
		m, err := v.read(u.Object)
		if err != nil {
			return nil, false, err
		}
		if ok, err := ff.matches(c, m); err != nil || !ok {
			return nil, false, err
		}
		if unstructuredList {
			out := &unstructured.Unstructured{}
			return out, true, c.fill(out, m, v.gvk)
		}
		t, err := c.scheme.New(v.gvk)
		if err != nil {
			out := &unstructured.Unstructured{}
			return out, true, c.fill(out, m, v.gvk)
		}
		return t, true, c.fill(t, m, v.gvk)
	}
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		if e.Object == nil {
			return e, true
		}
		obj, ok, err := conv(e.Object)
		if err != nil {
			return watch.Event{Type: watch.Error, Object: statusObject(fmt.Errorf("reading %s: %w", v.gvk.Kind, err))}, true
		}
		if !ok {
			return e, false
		}
		e.Object = obj
		return e, true
	}), nil
}
