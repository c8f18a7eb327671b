package testserver

import (
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/apiserver/pkg/endpoints/request"
)

// serveScale serves the scale subresource. Not done yet: 405.
func (s *Server) serveScale(w http.ResponseWriter, req *http.Request, info *request.RequestInfo, v *servedVersion) {
	responsewriters.ErrorNegotiated(apierrors.NewMethodNotSupported(v.kind.gr, info.Verb+" scale"), metaCodecs, v.gvk.GroupVersion(), w, req)
}
