package testserver

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
)

func writeJSON(w http.ResponseWriter, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(data)
}

func (s *Server) serveNonResource(w http.ResponseWriter, req *http.Request) {
	path := strings.TrimSuffix(req.URL.Path, "/")
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		responsewriters.ErrorNegotiated(notFoundError(), metaCodecs, schema.GroupVersion{}, w, req)
		return
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	switch {
	case path == "/healthz" || path == "/livez" || path == "/readyz":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok"))
	case path == "/version":
		minor := strings.TrimPrefix(s.kubernetesVersion.String(), "1.")
		writeJSON(w, version.Info{
			Major: "1", Minor: minor, GitVersion: fmt.Sprintf("v1.%s.0-testserver", minor),
			Platform: "testserver", GoVersion: "", Compiler: "gc",
		})
	case (path == "/api" || path == "/apis") && wantsAggregated(req):
		s.serveAggregated(w, path == "/api")
	case path == "/api":
		writeJSON(w, &metav1.APIVersions{
			TypeMeta: metav1.TypeMeta{Kind: "APIVersions"},
			Versions: []string{"v1"},
			ServerAddressByClientCIDRs: []metav1.ServerAddressByClientCIDR{
				{ClientCIDR: "0.0.0.0/0", ServerAddress: strings.TrimPrefix(s.url, "https://")},
			},
		})
	case path == "/api/v1":
		writeJSON(w, s.resourceList(schema.GroupVersion{Version: "v1"}))
	case path == "/apis":
		list := &metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
		for _, g := range s.groups() {
			if g.Name != "" {
				list.Groups = append(list.Groups, g)
			}
		}
		writeJSON(w, list)
	case len(parts) == 2 && parts[0] == "apis":
		for _, g := range s.groups() {
			if g.Name == parts[1] {
				g.TypeMeta = metav1.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}
				writeJSON(w, g)
				return
			}
		}
		responsewriters.ErrorNegotiated(notFoundError(), metaCodecs, schema.GroupVersion{}, w, req)
	case len(parts) == 3 && parts[0] == "apis":
		list := s.resourceList(schema.GroupVersion{Group: parts[1], Version: parts[2]})
		if len(list.APIResources) == 0 {
			responsewriters.ErrorNegotiated(notFoundError(), metaCodecs, schema.GroupVersion{}, w, req)
			return
		}
		writeJSON(w, list)
	case path == "/openapi/v2":
		s.serveOpenAPIV2(w, req)
	case path == "/openapi/v3":
		s.serveOpenAPIV3Index(w, req)
	case strings.HasPrefix(path, "/openapi/v3/"):
		s.serveOpenAPIV3(w, req, strings.TrimPrefix(path, "/openapi/v3/"))
	default:
		responsewriters.ErrorNegotiated(notFoundError(), metaCodecs, schema.GroupVersion{}, w, req)
	}
}

// groups returns the API groups with their served versions, the preferred
// one first (the highest by Kubernetes' version order).
func (s *Server) groups() []metav1.APIGroup {
	s.mu.RLock()
	versions := map[string]map[string]bool{}
	for _, k := range s.kinds {
		if versions[k.gr.Group] == nil {
			versions[k.gr.Group] = map[string]bool{}
		}
		for v := range k.versions {
			versions[k.gr.Group][v] = true
		}
	}
	s.mu.RUnlock()
	names := make([]string, 0, len(versions))
	for g := range versions {
		names = append(names, g)
	}
	sort.Strings(names)
	var out []metav1.APIGroup
	for _, g := range names {
		var vs []string
		for v := range versions[g] {
			vs = append(vs, v)
		}
		sort.Slice(vs, func(i, j int) bool { return version.CompareKubeAwareVersionStrings(vs[i], vs[j]) > 0 })
		ag := metav1.APIGroup{Name: g}
		for _, v := range vs {
			gv := schema.GroupVersion{Group: g, Version: v}.String()
			ag.Versions = append(ag.Versions, metav1.GroupVersionForDiscovery{GroupVersion: gv, Version: v})
		}
		ag.PreferredVersion = ag.Versions[0]
		out = append(out, ag)
	}
	return out
}

func (s *Server) resourceList(gv schema.GroupVersion) *metav1.APIResourceList {
	list := &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv.String()}
	s.mu.RLock()
	var kinds []*resourceKind
	for _, k := range s.kinds {
		if k.gr.Group == gv.Group && k.versions[gv.Version] != nil {
			kinds = append(kinds, k)
		}
	}
	s.mu.RUnlock()
	sort.Slice(kinds, func(i, j int) bool { return kinds[i].gr.Resource < kinds[j].gr.Resource })
	list.APIResources = []metav1.APIResource{}
	for _, k := range kinds {
		v := k.versions[gv.Version]
		verbs := metav1.Verbs{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}
		if k == s.ns {
			verbs = metav1.Verbs{"create", "delete", "get", "list", "patch", "update", "watch"}
		}
		list.APIResources = append(list.APIResources, metav1.APIResource{
			Name:               k.gr.Resource,
			SingularName:       k.singular,
			Namespaced:         k.namespaced,
			Kind:               k.kind,
			Verbs:              verbs,
			ShortNames:         k.shortNames,
			Categories:         k.categories,
			StorageVersionHash: storageVersionHash(k.gr.Group, k.storageVersion, k.kind),
		})
		if v.status {
			list.APIResources = append(list.APIResources, metav1.APIResource{
				Name: k.gr.Resource + "/status", Namespaced: k.namespaced, Kind: k.kind, Verbs: metav1.Verbs{"get", "patch", "update"},
			})
		}
		if v.scale != nil {
			list.APIResources = append(list.APIResources, metav1.APIResource{
				Name: k.gr.Resource + "/scale", Namespaced: k.namespaced, Group: "autoscaling", Version: "v1", Kind: "Scale",
				Verbs: metav1.Verbs{"get", "patch", "update"},
			})
		}
	}
	return list
}

// storageVersionHash is the API server's hash of a kind's storage version.
func storageVersionHash(group, version, kind string) string {
	gv := schema.GroupVersion{Group: group, Version: version}.String()
	sum := sha256.Sum256([]byte(gv + "/" + kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}
