package testserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/crdschema/crdschema/crd"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/endpoints/handlers/negotiation"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

// serveScale serves the scale subresource of a custom resource: get, update
// (PUT) and JSON and merge patches of its autoscaling/v1 Scale, read and
// written through crdschema's GetScale and UpdateScale. A patch applies to
// the Scale of the object as stored when it is written, as the API server's
// patch handler applies it. Server-side apply of the scale is not served
// (415).
func (s *Server) serveScale(w http.ResponseWriter, req *http.Request, info *request.RequestInfo, v *servedVersion) {
	fail := func(err error) {
		responsewriters.ErrorNegotiated(err, metaCodecs, v.gvk.GroupVersion(), w, req)
	}
	sv, err := v.serve(false)
	if err != nil {
		fail(apierrors.NewInternalError(err))
		return
	}
	ctx := req.Context()
	k := v.kind
	switch info.Verb {
	case "get":
		obj, err := sv.rest.Get(ctx, info.Name, &metav1.GetOptions{})
		if err != nil {
			fail(err)
			return
		}
		s.writeScale(w, v, obj, fail)
	case "update", "patch":
		data, err := io.ReadAll(io.LimitReader(req.Body, maxRequestBodyBytes+1))
		if err != nil {
			fail(apierrors.NewBadRequest(err.Error()))
			return
		}
		if len(data) > maxRequestBodyBytes {
			fail(apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", maxRequestBodyBytes)))
			return
		}
		name := info.Name
		var si *scaleInfo
		if info.Verb == "update" {
			sc, err := decodeScale(data)
			if err != nil {
				fail(apierrors.NewBadRequest(err.Error()))
				return
			}
			si = &scaleInfo{update: func(ctx context.Context, old map[string]any) (*outcome, error) {
				return runRequest(k.gr, k.gk(), name, "", updateScale(ctx, v.res, sc, old))
			}}
		} else {
			patch, err := scalePatcher(req.Header.Get("Content-Type"), data)
			if err != nil {
				fail(err)
				return
			}
			si = &scaleInfo{update: func(ctx context.Context, old map[string]any) (*outcome, error) {
				cur, err := getScale(v.res, old)
				if err != nil {
					return nil, apierrors.NewInternalError(err)
				}
				sc, err := patch(cur)
				if err != nil {
					return nil, err
				}
				return runRequest(k.gr, k.gk(), name, "", updateScale(ctx, v.res, sc, old))
			}}
		}
		obj, _, err := sv.rest.Store.Update(ctx, name, si, rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
		if err != nil {
			fail(err)
			return
		}
		addWarnings(ctx, si.warnings)
		s.writeScale(w, v, obj, fail)
	default:
		fail(apierrors.NewMethodNotSupported(k.gr, info.Verb))
	}
}

func (s *Server) writeScale(w http.ResponseWriter, v *servedVersion, obj runtime.Object, fail func(error)) {
	u, err := asUnstructured(obj)
	if err != nil {
		fail(apierrors.NewInternalError(err))
		return
	}
	sc, err := getScale(v.res, u.Object)
	if err != nil {
		fail(apierrors.NewInternalError(err))
		return
	}
	data, err := json.Marshal(sc)
	if err != nil {
		fail(apierrors.NewInternalError(err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}

// scaleInfo is the update of the object behind a scale update.
type scaleInfo struct {
	update   func(ctx context.Context, old map[string]any) (*outcome, error)
	warnings []string
}

func (i *scaleInfo) Preconditions() *metav1.Preconditions { return nil }

func (i *scaleInfo) UpdatedObject(ctx context.Context, oldObj runtime.Object) (runtime.Object, error) {
	old, err := asUnstructured(oldObj)
	if err != nil {
		return nil, err
	}
	if old.Object == nil || old.GetResourceVersion() == "" {
		return oldObj, nil // the registry store answers 404
	}
	out, err := i.update(ctx, old.Object)
	if err != nil {
		return nil, err
	}
	i.warnings = out.warnings
	return &unstructured.Unstructured{Object: out.object}, nil
}

// scalePatcher returns the patch of a PATCH of the scale subresource, or the
// API server's 415 for a patch type it does not serve here.
func scalePatcher(contentType string, data []byte) (func(*crd.Scale) (*crd.Scale, error), error) {
	mt, _, _ := mime.ParseMediaType(contentType)
	var apply func(doc []byte) ([]byte, error)
	switch mt {
	case string(types.JSONPatchType):
		p, err := jsonpatch.DecodePatch(data)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		apply = p.Apply
	case string(types.MergePatchType):
		apply = func(doc []byte) ([]byte, error) { return jsonpatch.MergePatch(doc, data) }
	default:
		return nil, negotiation.NewUnsupportedMediaTypeError([]string{string(types.JSONPatchType), string(types.MergePatchType)})
	}
	return func(cur *crd.Scale) (*crd.Scale, error) {
		doc, err := json.Marshal(cur)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		patched, err := apply(doc)
		if err == jsonpatch.ErrBadJSONPatch {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		if err != nil {
			return nil, apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
		}
		sc, err := decodeScale(patched)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		return sc, nil
	}, nil
}
