package fakeclient

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/crdschema/crdschema/internal/kubeapi"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Apply runs server-side apply of an apply configuration. For a CRD's kind
// the configuration is merged with the CRD's list types and map keys, and
// the result goes through the create or update pipeline.
func (c *fakeClient) Apply(ctx context.Context, ac runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
	u, err := applyConfigToUnstructured(ac)
	if err != nil {
		return err
	}
	v, err := c.served(u)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := c.other()
		if err != nil {
			return err
		}
		return inner.Apply(ctx, ac, opts...)
	}
	o := &client.ApplyOptions{}
	o.ApplyOptions(opts)
	po := &client.PatchOptions{Raw: o.AsPatchOptions()}
	po.Force = o.Force
	po.FieldManager = o.FieldManager
	po.DryRun = o.DryRun
	if err := c.apply(ctx, v, u, subMain, po); err != nil {
		return err
	}
	return copyInto(u, ac)
}

// apply merges the applied object u into the stored object, runs the
// pipeline and stores the result; u is set to the object as stored.
func (c *fakeClient) apply(ctx context.Context, v *version, u *unstructured.Unstructured, sub subresource, o *client.PatchOptions) error {
	if o.FieldManager == "" {
		return apierrors.NewInvalid(schema.GroupKind{Group: "meta.k8s.io", Kind: "PatchOptions"}, "",
			field.ErrorList{field.Required(field.NewPath("fieldManager"), "is required for apply patch")})
	}
	if u.GroupVersionKind() != v.gvk {
		return apierrors.NewBadRequest(fmt.Sprintf("the apiVersion and kind of the applied object (%s) must be those of the request (%s)", u.GroupVersionKind(), v.gvk))
	}
	fm, err := v.fieldManager(sub)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	force := o.Force != nil && *o.Force
	key := client.ObjectKey{Name: u.GetName(), Namespace: u.GetNamespace()}
	if !v.kind.namespaced {
		key.Namespace = ""
		unstructured.RemoveNestedField(u.Object, "metadata", "namespace")
	}
	for attempt := 0; ; attempt++ {
		stored, err := c.getStored(ctx, v.kind, key)
		create := apierrors.IsNotFound(err)
		if err != nil && !create {
			return err
		}
		live := &unstructured.Unstructured{}
		live.SetGroupVersionKind(v.gvk)
		if !create {
			cur, err := v.read(stored.Object)
			if err != nil {
				return err
			}
			live.Object = cur
		} else if sub == subStatus {
			return err
		}
		merged, err := fm.Apply(live, u.DeepCopy(), o.FieldManager, force)
		if err != nil {
			return err
		}
		mu, ok := merged.(*unstructured.Unstructured)
		if !ok {
			return apierrors.NewInternalError(fmt.Errorf("server-side apply returned %T", merged))
		}
		body := mu.Object
		var out map[string]any
		if create {
			out, err = c.createMap(ctx, v, body, o.FieldValidation, o.FieldManager, o.DryRun)
		} else {
			// An applied resourceVersion is a precondition, as in an
			// update: the API server's store refuses a stale one.
			if rv := u.GetResourceVersion(); rv != "" && rv != stored.GetResourceVersion() {
				return apierrors.NewConflict(v.kind.resource, stored.GetName(), errObjectModified)
			}
			unstructured.SetNestedField(body, stored.GetResourceVersion(), "metadata", "resourceVersion")
			out, err = c.write(ctx, v, body, stored, sub, o.FieldValidation, o.FieldManager, o.DryRun, true)
		}
		if (apierrors.IsConflict(err) || apierrors.IsAlreadyExists(err)) && attempt < maxPatchRetries {
			continue
		}
		if err != nil {
			return err
		}
		if !c.returnManagedFields {
			if md, ok := out["metadata"].(map[string]any); ok {
				delete(md, "managedFields")
			}
		}
		u.Object = out
		return nil
	}
}

// createMap runs the create pipeline on body and stores the result.
func (c *fakeClient) createMap(ctx context.Context, v *version, body map[string]any, fieldValidation, manager string, dryRun []string) (map[string]any, error) {
	dry := slices.Contains(dryRun, metav1.DryRunAll)
	r, err := kubeapi.Create(ctx, v.res, body, false)
	if err := kubeapi.ResultError(r, err, v.kind.resource, v.kind.gk, nameOf(body), fieldValidation); err != nil {
		return nil, err
	}
	out, err := c.storeCreate(ctx, v, r.Object, body, manager, dry)
	if err != nil {
		return nil, err
	}
	c.warn(v, r.Warnings, fieldValidation)
	out["apiVersion"] = v.gvk.GroupVersion().String()
	return out, nil
}

func applyConfigToUnstructured(ac runtime.ApplyConfiguration) (*unstructured.Unstructured, error) {
	if ac == nil || (reflect.ValueOf(ac).Kind() == reflect.Pointer && reflect.ValueOf(ac).IsNil()) {
		return nil, apierrors.NewBadRequest("missing apply configuration")
	}
	data, err := json.Marshal(ac)
	if err != nil {
		return nil, fmt.Errorf("encoding the apply configuration: %w", err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("decoding the apply configuration: %v", err))
	}
	return u, nil
}

// copyInto sets an apply configuration to the object the server returned.
func copyInto(u *unstructured.Unstructured, ac runtime.ApplyConfiguration) error {
	data, err := json.Marshal(u)
	if err != nil {
		return err
	}
	if uac, ok := ac.(interface {
		GetUnstructured() *unstructured.Unstructured
	}); ok {
		_ = uac
	}
	rv := reflect.ValueOf(ac)
	if rv.Kind() == reflect.Pointer && rv.Elem().Kind() == reflect.Struct {
		if f := rv.Elem().FieldByName("Unstructured"); f.IsValid() && f.Kind() == reflect.Pointer {
			if inner, ok := f.Interface().(*unstructured.Unstructured); ok && inner != nil {
				inner.Object = u.Object
				return nil
			}
		}
	}
	zero(ac)
	return json.Unmarshal(data, ac)
}

// toMapAny encodes a Go value as a JSON object.
func toMapAny(v any) (map[string]any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeObject(data)
}

// fromMap decodes a JSON object into a Go value.
func fromMap(m map[string]any, out any) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// statusObject wraps an error as the Status object of a watch error event.
func statusObject(err error) runtime.Object {
	if se, ok := err.(apierrors.APIStatus); ok {
		st := se.Status()
		return &st
	}
	st := apierrors.NewInternalError(err).Status()
	return &st
}
