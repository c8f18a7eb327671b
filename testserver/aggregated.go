package testserver

import (
	"encoding/json"
	"mime"
	"net/http"
	"strings"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// aggregatedContentType is the media type of aggregated discovery, which
// client-go's discovery client (and so kubectl) asks for first.
const aggregatedContentType = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"

// wantsAggregated tells whether a request to /api or /apis accepts the
// aggregated discovery document (apidiscovery.k8s.io/v2).
func wantsAggregated(req *http.Request) bool {
	for _, h := range req.Header.Values("Accept") {
		for _, part := range strings.Split(h, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || (mt != "application/json" && mt != "*/*") {
				continue
			}
			if params["g"] == "apidiscovery.k8s.io" && params["v"] == "v2" && params["as"] == "APIGroupDiscoveryList" {
				return true
			}
		}
	}
	return false
}

// serveAggregated writes the aggregated discovery document of the legacy
// group (/api) or of the named groups (/apis).
func (s *Server) serveAggregated(w http.ResponseWriter, legacy bool) {
	list := apidiscoveryv2.APIGroupDiscoveryList{
		TypeMeta: metav1.TypeMeta{Kind: "APIGroupDiscoveryList", APIVersion: "apidiscovery.k8s.io/v2"},
		Items:    []apidiscoveryv2.APIGroupDiscovery{},
	}
	for _, g := range s.groups() {
		if (g.Name == "") != legacy {
			continue
		}
		gd := apidiscoveryv2.APIGroupDiscovery{ObjectMeta: metav1.ObjectMeta{Name: g.Name}}
		for _, v := range g.Versions {
			gd.Versions = append(gd.Versions, s.versionDiscovery(schema.GroupVersion{Group: g.Name, Version: v.Version}))
		}
		list.Items = append(list.Items, gd)
	}
	data, err := json.Marshal(list)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", aggregatedContentType)
	w.Header().Set("Vary", "Accept")
	_, _ = w.Write(data)
}

// versionDiscovery is the aggregated form of a group version's resource
// list: each resource with its subresources.
func (s *Server) versionDiscovery(gv schema.GroupVersion) apidiscoveryv2.APIVersionDiscovery {
	vd := apidiscoveryv2.APIVersionDiscovery{Version: gv.Version, Resources: []apidiscoveryv2.APIResourceDiscovery{}, Freshness: apidiscoveryv2.DiscoveryFreshnessCurrent}
	for _, r := range s.resourceList(gv).APIResources {
		if main, sub, ok := strings.Cut(r.Name, "/"); ok {
			for i := range vd.Resources {
				if vd.Resources[i].Resource != main {
					continue
				}
				kind := &metav1.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: r.Kind}
				if r.Group != "" || r.Version != "" {
					kind = &metav1.GroupVersionKind{Group: r.Group, Version: r.Version, Kind: r.Kind}
				}
				vd.Resources[i].Subresources = append(vd.Resources[i].Subresources, apidiscoveryv2.APISubresourceDiscovery{
					Subresource: sub, ResponseKind: kind, Verbs: r.Verbs,
				})
			}
			continue
		}
		scope := apidiscoveryv2.ScopeCluster
		if r.Namespaced {
			scope = apidiscoveryv2.ScopeNamespace
		}
		vd.Resources = append(vd.Resources, apidiscoveryv2.APIResourceDiscovery{
			Resource:         r.Name,
			ResponseKind:     &metav1.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: r.Kind},
			Scope:            scope,
			SingularResource: r.SingularName,
			Verbs:            r.Verbs,
			ShortNames:       r.ShortNames,
			Categories:       r.Categories,
		})
	}
	return vd
}
