package testserver

import (
	"fmt"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/endpoints/handlers"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/warning"
)

// metaCodecs encode the server's own responses (Status, discovery).
var metaCodecs = serializer.NewCodecFactory(metaScheme)

// minRequestTimeout is the API server's default --min-request-timeout: a
// watch lasts between it and twice it.
const minRequestTimeout = 30 * time.Minute

// patchTypes are the patch types custom resources accept.
var patchTypes = []string{"application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"}

// builtinPatchTypes adds strategic merge patch, which built-in kinds accept.
var builtinPatchTypes = append([]string{"application/strategic-merge-patch+json"}, patchTypes...)

var admin = &user.DefaultInfo{Name: "testserver-admin", Groups: []string{user.SystemPrivilegedGroup, user.AllAuthenticated}}

func notFoundError() error {
	return apierrors.NewGenericServerResponse(http.StatusNotFound, "", schema.GroupResource{}, "", "", 0, false)
}

func (s *Server) serve(w http.ResponseWriter, req *http.Request) {
	ctx := req.Context()
	info, ok := request.RequestInfoFrom(ctx)
	if !ok {
		responsewriters.ErrorNegotiated(apierrors.NewInternalError(fmt.Errorf("no request info")), metaCodecs, schema.GroupVersion{}, w, req)
		return
	}
	if !info.IsResourceRequest {
		s.serveNonResource(w, req)
		return
	}
	gv := schema.GroupVersion{Group: info.APIGroup, Version: info.APIVersion}
	s.mu.RLock()
	k := s.kinds[schema.GroupResource{Group: info.APIGroup, Resource: info.Resource}]
	s.mu.RUnlock()
	var v *servedVersion
	if k != nil {
		v = k.versions[info.APIVersion]
	}
	if v == nil || (info.Namespace != "" && !k.namespaced && !(k.gr.Resource == "namespaces" && info.Name == info.Namespace)) {
		responsewriters.ErrorNegotiated(notFoundError(), metaCodecs, gv, w, req)
		return
	}
	if k.gr.Resource == "namespaces" && k.gr.Group == "" {
		// /api/v1/namespaces/<name> is read as the namespace <name>.
		if info.Namespace != "" && info.Name == "" && info.Subresource == "" {
			info.Name = info.Namespace
		}
		info.Namespace = ""
	}
	ctx = request.WithNamespace(ctx, info.Namespace)
	ctx = request.WithUser(ctx, admin)
	if v.warning != "" {
		warning.AddWarning(ctx, "", v.warning)
	}
	req = req.WithContext(ctx)
	var sv *serving
	var err error
	switch info.Subresource {
	case "":
		sv, err = v.serve(false)
	case "status":
		if !v.status {
			responsewriters.ErrorNegotiated(notFoundError(), metaCodecs, gv, w, req)
			return
		}
		sv, err = v.serve(true)
	case "scale":
		if v.scale == nil {
			responsewriters.ErrorNegotiated(notFoundError(), metaCodecs, gv, w, req)
			return
		}
		s.serveScale(w, req, info, v)
		return
	default:
		responsewriters.ErrorNegotiated(notFoundError(), metaCodecs, gv, w, req)
		return
	}
	if err != nil {
		responsewriters.ErrorNegotiated(apierrors.NewInternalError(err), metaCodecs, gv, w, req)
		return
	}
	types := patchTypes
	if k.def == nil {
		types = builtinPatchTypes
	}
	var h http.HandlerFunc
	switch {
	case info.Verb == "get":
		h = handlers.GetResource(sv.rest, sv.scope)
	case info.Verb == "list" && info.Subresource == "":
		h = handlers.ListResource(sv.rest, sv.rest, sv.scope, false, minRequestTimeout)
	case info.Verb == "watch" && info.Subresource == "":
		h = handlers.ListResource(sv.rest, sv.rest, sv.scope, true, minRequestTimeout)
	case info.Verb == "create" && info.Subresource == "":
		h = handlers.CreateResource(sv.rest, sv.scope, nil)
	case info.Verb == "update":
		h = handlers.UpdateResource(sv.rest, sv.scope, nil)
	case info.Verb == "patch":
		h = handlers.PatchResource(sv.rest, sv.scope, nil, types)
	case info.Verb == "delete" && info.Subresource == "":
		h = handlers.DeleteResource(sv.rest, true, sv.scope, nil)
	case info.Verb == "deletecollection" && info.Subresource == "" && k != s.ns:
		// Namespaces do not serve deletecollection (the namespace REST
		// has no DeleteCollection).
		h = handlers.DeleteCollection(sv.rest, true, sv.scope, nil)
	default:
		responsewriters.ErrorNegotiated(apierrors.NewMethodNotSupported(k.gr, info.Verb), metaCodecs, gv, w, req)
		return
	}
	h(w, req)
}
