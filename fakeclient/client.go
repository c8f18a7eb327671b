package fakeclient

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// fakeClient serves the CRDs' kinds through the library's request pipeline
// and stores them, as JSON in their storage version, in a controller-runtime
// fake client with a plain object tracker (store); a second one (other,
// built on first use) serves every other kind as controller-runtime's fake
// client does.
type fakeClient struct {
	other               func() (client.WithWatch, error)
	store               client.WithWatch
	applier             client.WithWatch // see newSubResourceApplier
	scheme              *runtime.Scheme
	mapper              meta.RESTMapper
	kinds               map[schema.GroupKind]*kind
	versions            map[schema.GroupVersionKind]*version
	lists               map[schema.GroupVersionKind]*version
	groups              map[string]bool // the CRDs' groups: other kinds of them are not served
	indexes             map[schema.GroupVersionKind]map[string]client.IndexerFunc
	warnings            rest.WarningHandler
	returnManagedFields bool
}

var _ client.WithWatch = (*fakeClient)(nil)

// served returns the version of a CRD that serves obj's kind, nil for kinds no
// CRD serves, or an error for kinds the client cannot name and for versions
// of a CRD's kind that are not served.
func (c *fakeClient) served(obj runtime.Object) (*version, error) {
	gvk, err := apiutil.GVKForObject(obj, c.scheme)
	if err != nil {
		return nil, err
	}
	if v := c.versions[gvk]; v != nil {
		return v, v.compile()
	}
	if c.kinds[gvk.GroupKind()] != nil || c.groups[gvk.Group] {
		return nil, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
	}
	return nil, nil
}

// servedList is served for lists.
func (c *fakeClient) servedList(list runtime.Object) (*version, error) {
	gvk, err := apiutil.GVKForObject(list, c.scheme)
	if err != nil {
		return nil, err
	}
	if v := c.lists[gvk]; v != nil {
		return v, v.compile()
	}
	if !strings.HasSuffix(gvk.Kind, "List") {
		// An unstructured list may carry the item kind.
		if v := c.versions[gvk]; v != nil {
			return v, v.compile()
		}
	}
	gk := schema.GroupKind{Group: gvk.Group, Kind: strings.TrimSuffix(gvk.Kind, "List")}
	if c.kinds[gk] != nil || c.groups[gk.Group] {
		return nil, &meta.NoKindMatchError{GroupKind: gk, SearchedVersions: []string{gvk.Version}}
	}
	return nil, nil
}

// Scheme returns the scheme the client was built with.
func (c *fakeClient) Scheme() *runtime.Scheme { return c.scheme }

// RESTMapper returns the client's REST mapper: the CRDs' kinds, then the
// builder's mapper.
func (c *fakeClient) RESTMapper() meta.RESTMapper { return c.mapper }

// GroupVersionKindFor returns the kind of obj.
func (c *fakeClient) GroupVersionKindFor(obj runtime.Object) (schema.GroupVersionKind, error) {
	return apiutil.GVKForObject(obj, c.scheme)
}

// IsObjectNamespaced tells whether obj's kind is namespaced.
func (c *fakeClient) IsObjectNamespaced(obj runtime.Object) (bool, error) {
	v, err := c.served(obj)
	if err != nil {
		return false, err
	}
	if v != nil {
		return v.kind.namespaced, nil
	}
	inner, err := c.other()
	if err != nil {
		return false, err
	}
	return inner.IsObjectNamespaced(obj)
}

// storageObject returns an empty unstructured object of k's storage version
// with the given key.
func (k *kind) storageObject(key client.ObjectKey) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(k.storage.gvk)
	u.SetName(key.Name)
	if k.namespaced {
		u.SetNamespace(key.Namespace)
	}
	return u
}

// key returns the key of obj as the client sends it: no namespace for
// cluster-scoped kinds.
func (k *kind) key(obj client.Object) client.ObjectKey {
	key := client.ObjectKeyFromObject(obj)
	if !k.namespaced {
		key.Namespace = ""
	}
	return key
}

// getStored reads the stored object (storage version, as stored).
func (c *fakeClient) getStored(ctx context.Context, k *kind, key client.ObjectKey) (*unstructured.Unstructured, error) {
	u := k.storageObject(key)
	if err := c.store.Get(ctx, key, u); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, notFound(k.resource, key.Name)
		}
		return nil, err
	}
	return u, nil
}

// read returns a stored object as the API server reads it in version v:
// pruned, defaulted and converted.
func (v *version) read(stored map[string]any) (map[string]any, error) {
	if v != v.kind.storage && !v.kind.convertible {
		return nil, &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Reason: metav1.StatusReasonInternalError,
			Message: fmt.Sprintf("conversion webhook for %s failed: fakeclient does not call conversion webhooks", v.kind.gk.WithVersion(v.kind.storage.name)),
		}}
	}
	m, err := v.res.ReadStored(stored)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	return m, nil
}

// fill sets obj to the object m of kind gvk, as the client decodes a response.
func (c *fakeClient) fill(obj runtime.Object, m map[string]any, gvk schema.GroupVersionKind) error {
	if !c.returnManagedFields {
		if md, ok := m["metadata"].(map[string]any); ok {
			delete(md, "managedFields")
		}
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		u.Object = m
		u.SetGroupVersionKind(gvk)
		return nil
	}
	data, err := utiljson.Marshal(m)
	if err != nil {
		return err
	}
	zero(obj)
	if err := utiljson.Unmarshal(data, obj); err != nil {
		return fmt.Errorf("decoding %s into %T: %w", gvk.Kind, obj, err)
	}
	return ensureTypeMeta(obj, gvk)
}

func zero(x any) {
	v := reflect.ValueOf(x)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	v.Elem().Set(reflect.Zero(v.Elem().Type()))
}

// ensureTypeMeta leaves apiVersion and kind on unstructured and partial
// objects and clears them on typed ones, as the real client decodes them.
func ensureTypeMeta(obj runtime.Object, gvk schema.GroupVersionKind) error {
	ta, err := meta.TypeAccessor(obj)
	if err != nil {
		return err
	}
	switch obj.(type) {
	case runtime.Unstructured, *metav1.PartialObjectMetadata, *metav1.PartialObjectMetadataList:
		ta.SetKind(gvk.Kind)
		ta.SetAPIVersion(gvk.GroupVersion().String())
	default:
		ta.SetKind("")
		ta.SetAPIVersion("")
	}
	return nil
}

// warn reports the warnings of a write in version v: the deprecation of
// the version, then the request's (unknown fields, unless
// fieldValidation=Ignore; finalizer names).
func (c *fakeClient) warn(v *version, warnings []string, validation string) {
	if v.warning != "" {
		c.warnings.HandleWarningHeader(299, "-", v.warning)
	}
	for _, w := range warnings {
		if validation == metav1.FieldValidationIgnore && strings.HasPrefix(w, "unknown field ") {
			continue
		}
		c.warnings.HandleWarningHeader(299, "-", w)
	}
}
