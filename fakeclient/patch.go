package fakeclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// maxPatchRetries bounds the retries of a patch whose object changed while
// it was applied, as the API server retries its guaranteed update.
const maxPatchRetries = 10

// Patch patches obj. For a CRD's kind, JSON and merge patches are applied to
// the stored object and the result goes through the update pipeline;
// strategic merge patches are refused as the API server refuses them for
// custom resources; client.Apply runs server-side apply.
func (c *fakeClient) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	v, err := c.served(obj)
	if err != nil || v == nil {
		if err != nil {
			return err
		}
		inner, err := c.other()
		if err != nil {
			return err
		}
		return inner.Patch(ctx, obj, patch, opts...)
	}
	o := &client.PatchOptions{}
	o.ApplyOptions(opts)
	return c.patch(ctx, v, obj, patch, subMain, o)
}

func (c *fakeClient) patch(ctx context.Context, v *version, obj client.Object, patch client.Patch, sub subresource, o *client.PatchOptions) error {
	if patch == nil {
		return apierrors.NewBadRequest("missing patch")
	}
	pt := patch.Type()
	switch pt {
	case types.JSONPatchType, types.MergePatchType:
	case types.ApplyPatchType, types.ApplyCBORPatchType:
		data, err := patch.Data(obj)
		if err != nil {
			return err
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(data); err != nil {
			return apierrors.NewBadRequest(err.Error())
		}
		if err := c.apply(ctx, v, u, sub, o); err != nil {
			return err
		}
		return c.fill(obj, u.Object, v.gvk)
	default:
		return unsupportedPatch()
	}
	data, err := patch.Data(obj)
	if err != nil {
		return err
	}
	key := v.kind.key(obj)
	for attempt := 0; ; attempt++ {
		stored, err := c.getStored(ctx, v.kind, key)
		if err != nil {
			return err
		}
		cur, err := v.read(stored.Object)
		if err != nil {
			return err
		}
		body, err := applyPatch(pt, cur, data)
		if err != nil {
			return err
		}
		md, _ := body["metadata"].(map[string]any)
		preconditioned := md != nil && md["resourceVersion"] != nil && md["resourceVersion"] != ""
		if md != nil && !preconditioned {
			md["resourceVersion"] = stored.GetResourceVersion()
		}
		out, err := c.write(ctx, v, body, stored, sub, o.FieldValidation, o.FieldManager, o.DryRun, false)
		if apierrors.IsConflict(err) && !preconditioned && attempt < maxPatchRetries {
			continue
		}
		if err != nil {
			return err
		}
		return c.fill(obj, out, v.gvk)
	}
}

// applyJSONPatch applies p to doc. The JSON patch library the API server
// uses panics on some patches (a "replace" of the whole document without
// a value); the API server's panic recovery answers those with an internal
// error, and so does applyJSONPatch.
func applyJSONPatch(p jsonpatch.Patch, doc []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, apierrors.NewInternalError(fmt.Errorf("applying the JSON patch: %v", r))
		}
	}()
	return p.Apply(doc)
}

// applyPatch applies a JSON or merge patch to cur, as the API server does,
// and decodes the result.
func applyPatch(pt types.PatchType, cur map[string]any, data []byte) (map[string]any, error) {
	curJSON, err := json.Marshal(cur)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	var patched []byte
	switch pt {
	case types.JSONPatchType:
		p, err := jsonpatch.DecodePatch(data)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		if patched, err = applyJSONPatch(p, curJSON); err != nil {
			if _, internal := err.(*apierrors.StatusError); internal {
				return nil, err
			}
			return nil, apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
		}
	default:
		if patched, err = jsonpatch.MergePatch(curJSON, data); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
	}
	body, err := decodeObject(patched)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("decoding the patched object: %v", err))
	}
	return body, nil
}
