package testserver

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

type pathRecorder struct {
	mu    sync.Mutex
	paths []string
	next  http.RoundTripper
}

func (p *pathRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	p.mu.Lock()
	p.paths = append(p.paths, req.URL.Path)
	p.mu.Unlock()
	return p.next.RoundTrip(req)
}

// TestAggregatedDiscovery checks aggregated discovery
// (apidiscovery.k8s.io/v2, KEP 3352), which client-go's discovery client
// and kubectl ask for first: client-go discovers every group, version and
// resource from /api and /apis alone, and the document has each resource
// with its scope, verbs, names and subresources (the scale's kind is
// autoscaling/v1 Scale). A client that does not ask for it gets the legacy
// documents.
func TestAggregatedDiscovery(t *testing.T) {
	srv, _ := startCronTab(t)
	cfg := srv.RESTConfig()
	rec := &pathRecorder{}
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { rec.next = rt; return rec }
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, lists, err := disc.ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(rec.paths)
	if got := strings.Join(rec.paths, " "); got != "/api /apis" {
		t.Errorf("client-go's discovery requested %s, want /api and /apis only", got)
	}
	found := false
	for _, l := range lists {
		if l.GroupVersion != "stable.example.com/v1" {
			continue
		}
		var names []string
		for _, r := range l.APIResources {
			names = append(names, r.Name)
		}
		found = true
		if got := strings.Join(names, ","); got != "crontabs,crontabs/scale,crontabs/status" && got != "crontabs,crontabs/status,crontabs/scale" {
			t.Errorf("stable.example.com/v1: %s", got)
		}
	}
	if !found {
		t.Errorf("no stable.example.com/v1 in %d lists", len(lists))
	}

	hc, err := rest.HTTPClientFor(srv.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, accept string) (string, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL()+path, nil)
		req.Header.Set("Accept", accept)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		if _, err := bufCopy(&b, resp); err != nil {
			t.Fatal(err)
		}
		return resp.Header.Get("Content-Type"), []byte(b.String())
	}
	// client-go's Accept header.
	accept := "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json"
	ct, body := get("/apis", accept)
	if ct != "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList" {
		t.Fatalf("/apis content type %q", ct)
	}
	var list apidiscoveryv2.APIGroupDiscoveryList
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	var crontab *apidiscoveryv2.APIResourceDiscovery
	for _, g := range list.Items {
		if g.Name == "stable.example.com" && len(g.Versions) == 1 && g.Versions[0].Version == "v1" {
			for i, r := range g.Versions[0].Resources {
				if r.Resource == "crontabs" {
					crontab = &g.Versions[0].Resources[i]
				}
			}
		}
	}
	if crontab == nil {
		t.Fatalf("no crontabs in %s", body)
	}
	if crontab.Scope != apidiscoveryv2.ScopeNamespace || crontab.SingularResource != "crontab" || crontab.ResponseKind.Kind != "CronTab" ||
		strings.Join(crontab.ShortNames, ",") != "ct" || len(crontab.Verbs) != 8 || len(crontab.Subresources) != 2 {
		t.Errorf("crontabs: %+v", crontab)
	}
	for _, sub := range crontab.Subresources {
		if sub.Subresource == "scale" && (sub.ResponseKind.Group != "autoscaling" || sub.ResponseKind.Version != "v1" || sub.ResponseKind.Kind != "Scale") {
			t.Errorf("scale subresource: %+v", sub)
		}
	}
	ct, body = get("/api", accept)
	var core apidiscoveryv2.APIGroupDiscoveryList
	if err := json.Unmarshal(body, &core); err != nil || ct != aggregatedContentType || len(core.Items) != 1 || core.Items[0].Name != "" ||
		!strings.Contains(string(body), `"resource":"configmaps"`) {
		t.Errorf("/api: %s %s %v", ct, body, err)
	}
	if ct, body := get("/apis", "application/json"); ct != "application/json" || !strings.Contains(string(body), `"kind":"APIGroupList"`) {
		t.Errorf("legacy /apis: %s %s", ct, body)
	}
}
