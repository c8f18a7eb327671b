package testserver

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	"github.com/crdschema/crdschema/openapi"
	"github.com/go-openapi/spec"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
)

// crdVersions returns the served CRD versions, by group version.
func (s *Server) crdVersions() map[schema.GroupVersion][]*servedVersion {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[schema.GroupVersion][]*servedVersion{}
	for _, k := range s.crdKinds {
		for _, name := range k.order {
			v := k.versions[name]
			out[v.gvk.GroupVersion()] = append(out[v.gvk.GroupVersion()], v)
		}
	}
	for gv := range out {
		vs := out[gv]
		sort.Slice(vs, func(i, j int) bool { return vs[i].kind.gr.Resource < vs[j].kind.gr.Resource })
	}
	return out
}

// serveOpenAPIV2 serves the OpenAPI v2 documents crdschema publishes for the
// CRDs' versions, merged into one as the API server merges them.
func (s *Server) serveOpenAPIV2(w http.ResponseWriter, req *http.Request) {
	merged := &spec.Swagger{SwaggerProps: spec.SwaggerProps{
		Swagger:     "2.0",
		Info:        &spec.Info{InfoProps: spec.InfoProps{Title: "Kubernetes", Version: "v1.37.0"}},
		Paths:       &spec.Paths{Paths: map[string]spec.PathItem{}},
		Definitions: spec.Definitions{},
		Parameters:  map[string]spec.Parameter{},
	}}
	for _, vs := range s.crdVersions() {
		for _, v := range vs {
			doc, err := openapi.V2(v.kind.def, v.gvk.Version, openapi.Options{KubernetesVersion: s.kubernetesVersion})
			if err != nil {
				responsewriters.ErrorNegotiated(apierrors.NewInternalError(err), metaCodecs, schema.GroupVersion{}, w, req)
				return
			}
			if doc.Paths != nil {
				for p, item := range doc.Paths.Paths {
					merged.Paths.Paths[p] = item
				}
			}
			for n, d := range doc.Definitions {
				merged.Definitions[n] = d
			}
			for n, p := range doc.Parameters {
				merged.Parameters[n] = p
			}
		}
	}
	writeJSON(w, merged)
}

// serveOpenAPIV3Index lists the group versions of /openapi/v3.
func (s *Server) serveOpenAPIV3Index(w http.ResponseWriter, req *http.Request) {
	type entry struct {
		ServerRelativeURL string `json:"serverRelativeURL"`
	}
	paths := map[string]entry{}
	for gv := range s.crdVersions() {
		p := "apis/" + gv.Group + "/" + gv.Version
		paths[p] = entry{ServerRelativeURL: "/openapi/v3/" + p}
	}
	writeJSON(w, map[string]any{"paths": paths})
}

// serveOpenAPIV3 serves the OpenAPI v3 document of one group version: the
// documents of its CRDs merged.
func (s *Server) serveOpenAPIV3(w http.ResponseWriter, req *http.Request, path string) {
	parts := strings.Split(path, "/")
	if len(parts) != 3 || parts[0] != "apis" {
		responsewriters.ErrorNegotiated(notFoundError(), metaCodecs, schema.GroupVersion{}, w, req)
		return
	}
	vs := s.crdVersions()[schema.GroupVersion{Group: parts[1], Version: parts[2]}]
	if len(vs) == 0 {
		responsewriters.ErrorNegotiated(notFoundError(), metaCodecs, schema.GroupVersion{}, w, req)
		return
	}
	var merged *openapi.Document
	for _, v := range vs {
		doc, err := openapi.V3(v.kind.def, v.gvk.Version, openapi.Options{KubernetesVersion: s.kubernetesVersion})
		if err != nil {
			responsewriters.ErrorNegotiated(apierrors.NewInternalError(err), metaCodecs, schema.GroupVersion{}, w, req)
			return
		}
		if merged == nil {
			merged = doc
			continue
		}
		for p, item := range doc.Paths {
			merged.Paths[p] = item
		}
		for n, sc := range doc.Components.Schemas {
			merged.Components.Schemas[n] = sc
		}
	}
	data, err := json.Marshal(merged)
	if err != nil {
		responsewriters.ErrorNegotiated(apierrors.NewInternalError(err), metaCodecs, schema.GroupVersion{}, w, req)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}
