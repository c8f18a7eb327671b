package testserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

// serveScale serves the scale subresource of a custom resource: get and
// update (PUT) of its autoscaling/v1 Scale, read and written through
// crdschema's GetScale and UpdateScale. Patches of the scale are not
// served (405).
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
	case "update":
		data, err := io.ReadAll(io.LimitReader(req.Body, maxRequestBodyBytes+1))
		if err != nil {
			fail(apierrors.NewBadRequest(err.Error()))
			return
		}
		if len(data) > maxRequestBodyBytes {
			fail(apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", maxRequestBodyBytes)))
			return
		}
		sc, err := decodeScale(data)
		if err != nil {
			fail(apierrors.NewBadRequest(err.Error()))
			return
		}
		name := info.Name
		si := &scaleInfo{update: func(ctx context.Context, old map[string]any) (*outcome, error) {
			return runRequest(k.gr, k.gk(), name, "", updateScale(ctx, v.res, sc, old))
		}}
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
