package fakeclient

import (
	"context"

	"github.com/crdschema/crdschema/printer"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Get reads an object. For a CRD's kind, the stored object is read as the
// API server reads it in the requested version: pruned, defaulted, converted.
func (c *fakeClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	v, err := c.served(obj)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := c.other()
		if err != nil {
			return err
		}
		return inner.Get(ctx, key, obj, opts...)
	}
	if !v.kind.namespaced {
		key.Namespace = ""
	}
	stored, err := c.getStored(ctx, v.kind, key)
	if err != nil {
		return err
	}
	m, err := v.read(stored.Object)
	if err != nil {
		return err
	}
	return c.fill(obj, m, v.gvk)
}

// fieldFilter is a field selector of a List or Watch of a CRD's kind.
type fieldFilter struct {
	v       *version
	sel     printer.Selector
	indexed fields.Selector // matched through WithIndex indexes
	index   map[string]client.IndexerFunc
}

// newFieldFilter checks a field selector as the API server does: fields that
// WithIndex indexes are matched through their index, others must be
// metadata.name, metadata.namespace or a selectable field.
func (c *fakeClient) newFieldFilter(v *version, fs fields.Selector) (*fieldFilter, error) {
	f := &fieldFilter{v: v}
	if fs == nil || fs.Empty() {
		return f, nil
	}
	if ix := c.indexes[v.gvk]; ix != nil {
		all := true
		for _, r := range fs.Requirements() {
			if ix[r.Field] == nil {
				all = false
			}
		}
		if all {
			f.indexed, f.index = fs, ix
			return f, nil
		}
	}
	sel, err := v.fields.ParseSelector(fs.String())
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	f.sel = sel
	return f, nil
}

func (f *fieldFilter) matches(c *fakeClient, m map[string]any) (bool, error) {
	if f.indexed != nil {
		obj := &unstructured.Unstructured{Object: m}
		var typed client.Object = obj
		if t, err := c.scheme.New(f.v.gvk); err == nil {
			if to, ok := t.(client.Object); ok && c.fill(to, deepCopy(m), f.v.gvk) == nil {
				typed = to
			}
		}
		for _, r := range f.indexed.Requirements() {
			vals := f.index[r.Field](typed)
			found := false
			for _, val := range vals {
				if val == r.Value {
					found = true
				}
			}
			if found == (r.Operator == "!=") {
				return false, nil
			}
		}
		return true, nil
	}
	if f.sel.Empty() {
		return true, nil
	}
	ok, err := f.v.fields.Matches(f.sel, m)
	if err != nil {
		return false, apierrors.NewInternalError(err)
	}
	return ok, nil
}

func deepCopy(m map[string]any) map[string]any {
	return runtime.DeepCopyJSON(m)
}

// List lists objects. For a CRD's kind, objects are read in the requested
// version and field selectors are matched as the API server matches them.
func (c *fakeClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	v, err := c.servedList(list)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := c.other()
		if err != nil {
			return err
		}
		return inner.List(ctx, list, opts...)
	}
	o := &client.ListOptions{}
	o.ApplyOptions(opts)
	ff, err := c.newFieldFilter(v, o.FieldSelector)
	if err != nil {
		return err
	}
	stored := &unstructured.UnstructuredList{}
	stored.SetGroupVersionKind(v.kind.storage.gvk.GroupVersion().WithKind(v.kind.listKind))
	inner := &client.ListOptions{Namespace: o.Namespace, LabelSelector: o.LabelSelector}
	if !v.kind.namespaced {
		inner.Namespace = ""
	}
	if err := c.store.List(ctx, stored, inner); err != nil {
		return err
	}
	items := make([]any, 0, len(stored.Items))
	for i := range stored.Items {
		m, err := v.read(stored.Items[i].Object)
		if err != nil {
			return err
		}
		ok, err := ff.matches(c, m)
		if err != nil {
			return err
		}
		if ok {
			if !c.returnManagedFields {
				if md, ok := m["metadata"].(map[string]any); ok {
					delete(md, "managedFields")
				}
			}
			items = append(items, m)
		}
	}
	listGVK := v.gvk.GroupVersion().WithKind(v.kind.listKind)
	if ul, ok := list.(*unstructured.UnstructuredList); ok {
		ul.Items = ul.Items[:0]
		for _, it := range items {
			ul.Items = append(ul.Items, unstructured.Unstructured{Object: it.(map[string]any)})
		}
		ul.SetResourceVersion(stored.GetResourceVersion())
		ul.SetGroupVersionKind(listGVK)
		return nil
	}
	data, err := utiljson.Marshal(map[string]any{
		"apiVersion": listGVK.GroupVersion().String(),
		"kind":       listGVK.Kind,
		"metadata":   map[string]any{"resourceVersion": stored.GetResourceVersion()},
		"items":      items,
	})
	if err != nil {
		return err
	}
	zero(list)
	if err := utiljson.Unmarshal(data, list); err != nil {
		return err
	}
	objs, err := meta.ExtractList(list)
	if err != nil {
		return err
	}
	for _, it := range objs {
		if err := ensureTypeMeta(it, v.gvk); err != nil {
			return err
		}
	}
	if err := meta.SetList(list, objs); err != nil {
		return err
	}
	return ensureListTypeMeta(list, listGVK)
}

func ensureListTypeMeta(list runtime.Object, gvk schema.GroupVersionKind) error {
	ta, err := meta.TypeAccessor(list)
	if err != nil {
		return err
	}
	if _, ok := list.(*metav1.PartialObjectMetadataList); ok {
		ta.SetKind(gvk.Kind)
		ta.SetAPIVersion(gvk.GroupVersion().String())
		return nil
	}
	ta.SetKind("")
	ta.SetAPIVersion("")
	return nil
}
