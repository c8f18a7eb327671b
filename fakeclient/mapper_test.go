package fakeclient_test

import (
	"errors"
	"fmt"
	"github.com/crdschema/crdschema/internal/readall"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/fakeclient"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubeversion "k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"
)

// TestRESTMapperMatchesDiscovery compares the client's REST mapper with
// client-go's discovery mapper (restmapper.NewDiscoveryRESTMapper) over the
// discovery documents an API server serves for the same CRDs, for every
// kind of the corpus of real CRDs (shared/corpus/crds beside the
// repository, or $CRDSCHEMA_CORPUS; without it, the same CRDs in the
// conformance suite's realworld cases). The CRDs are spread over as few
// clients as names and kinds allow, so that kinds of many groups share a
// client (Gateway API's and Istio's gateways among them).
func TestRESTMapperMatchesDiscovery(t *testing.T) {
	defs := corpusCRDs(t)
	var sets [][]*crdschema.CustomResourceDefinition
	for _, d := range defs {
		placed := false
		for i, set := range sets {
			if !collides(set, d) {
				sets[i] = append(set, d)
				placed = true
				break
			}
		}
		if !placed {
			sets = append(sets, []*crdschema.CustomResourceDefinition{d})
		}
	}
	kinds, queries := 0, 0
	for _, set := range sets {
		c, err := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDDefinitions(set...).Build()
		// A CRD the API server refuses is left out.
		for ce := (*fakeclient.CRDError)(nil); errors.As(err, &ce); {
			t.Logf("left out: %v", err)
			set = slices.DeleteFunc(set, func(d *crdschema.CustomResourceDefinition) bool { return d.Name == ce.Name })
			c, err = fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDDefinitions(set...).Build()
		}
		if err != nil {
			t.Fatal(err)
		}
		got, want := c.RESTMapper(), restmapper.NewDiscoveryRESTMapper(apiServerDiscovery(set))
		for _, d := range set {
			kinds++
			gk := schema.GroupKind{Group: d.Spec.Group, Kind: d.Spec.Names.Kind}
			if _, err := got.RESTMapping(gk); err != nil {
				t.Errorf("RESTMapping(%s): %v", gk, err)
			}
			for _, q := range mapperQueries(d) {
				queries++
				if g, w := q(got), q(want); g != w {
					t.Errorf("%s:\n got %s\nwant %s", d.Name, g, w)
				}
			}
		}
	}
	t.Logf("%d kinds in %d clients, %d queries", kinds, len(sets), queries)
	if kinds < 200 {
		t.Errorf("only %d kinds of the corpus compared", kinds)
	}
}

// collides reports whether d has the name or kind of a CRD of set.
func collides(set []*crdschema.CustomResourceDefinition, d *crdschema.CustomResourceDefinition) bool {
	for _, o := range set {
		if o.Name == d.Name || (o.Spec.Group == d.Spec.Group && o.Spec.Names.Kind == d.Spec.Names.Kind) {
			return true
		}
	}
	return false
}

// mapperQueries returns the questions asked of both mappers about d's kind,
// each rendering the answer and the error as text.
func mapperQueries(d *crdschema.CustomResourceDefinition) []func(meta.RESTMapper) string {
	gk := schema.GroupKind{Group: d.Spec.Group, Kind: d.Spec.Names.Kind}
	singular := d.Spec.Names.Singular
	if singular == "" {
		singular = strings.ToLower(d.Spec.Names.Kind)
	}
	versionArgs := [][]string{nil, {"v9"}}
	var resources []schema.GroupVersionResource
	for _, r := range []string{d.Spec.Names.Plural, singular, strings.ToLower(d.Spec.Names.Kind)} {
		resources = append(resources, schema.GroupVersionResource{Resource: r}, schema.GroupVersionResource{Group: d.Spec.Group, Resource: r})
	}
	for _, v := range d.Spec.Versions {
		versionArgs = append(versionArgs, []string{v.Name}, []string{"v9", v.Name})
		resources = append(resources, schema.GroupVersionResource{Group: d.Spec.Group, Version: v.Name, Resource: d.Spec.Names.Plural})
	}
	var qs []func(meta.RESTMapper) string
	for _, vs := range versionArgs {
		qs = append(qs,
			func(m meta.RESTMapper) string {
				r, err := m.RESTMapping(gk, vs...)
				return fmt.Sprintf("RESTMapping(%s, %q) = %s, %v", gk, vs, mappingText(r), err)
			},
			func(m meta.RESTMapper) string {
				rs, err := m.RESTMappings(gk, vs...)
				var texts []string
				for _, r := range rs {
					texts = append(texts, mappingText(r))
				}
				return fmt.Sprintf("RESTMappings(%s, %q) = %s, %v", gk, vs, texts, err)
			})
	}
	for _, r := range resources {
		qs = append(qs,
			func(m meta.RESTMapper) string {
				k, err := m.KindFor(r)
				return fmt.Sprintf("KindFor(%s) = %s, %v", r, k, err)
			},
			func(m meta.RESTMapper) string {
				k, err := m.KindsFor(r)
				return fmt.Sprintf("KindsFor(%s) = %s, %v", r, k, err)
			},
			func(m meta.RESTMapper) string {
				k, err := m.ResourceFor(r)
				return fmt.Sprintf("ResourceFor(%s) = %s, %v", r, k, err)
			},
			func(m meta.RESTMapper) string {
				k, err := m.ResourcesFor(r)
				return fmt.Sprintf("ResourcesFor(%s) = %s, %v", r, k, err)
			})
	}
	qs = append(qs, func(m meta.RESTMapper) string {
		s, err := m.ResourceSingularizer(d.Spec.Names.Plural)
		return fmt.Sprintf("ResourceSingularizer(%s) = %s, %v", d.Spec.Names.Plural, s, err)
	})
	return qs
}

func mappingText(r *meta.RESTMapping) string {
	if r == nil {
		return "nil"
	}
	return fmt.Sprintf("{%s %s %s}", r.Resource, r.GroupVersionKind, r.Scope.Name())
}

// apiServerDiscovery returns the discovery an API server serves for defs,
// as kube-aggregator orders it: every CRD group has group priority 1000,
// so groups come in alphabetical order; every CRD version has version
// priority 100, so a group's served versions come in Kubernetes version
// order, the first preferred. Each version lists its resources and their
// subresources.
func apiServerDiscovery(defs []*crdschema.CustomResourceDefinition) []*restmapper.APIGroupResources {
	byGroup := map[string]*restmapper.APIGroupResources{}
	for _, d := range defs {
		g := byGroup[d.Spec.Group]
		if g == nil {
			g = &restmapper.APIGroupResources{Group: metav1.APIGroup{Name: d.Spec.Group}, VersionedResources: map[string][]metav1.APIResource{}}
			byGroup[d.Spec.Group] = g
		}
		singular := d.Spec.Names.Singular
		if singular == "" {
			singular = strings.ToLower(d.Spec.Names.Kind)
		}
		for _, v := range d.Spec.Versions {
			if !v.Served {
				continue
			}
			verbs := metav1.Verbs{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}
			rs := []metav1.APIResource{{
				Name: d.Spec.Names.Plural, SingularName: singular, Namespaced: d.Spec.Scope == "Namespaced",
				Kind: d.Spec.Names.Kind, Verbs: verbs, ShortNames: d.Spec.Names.ShortNames, Categories: d.Spec.Names.Categories,
			}}
			if v.Subresources != nil && v.Subresources.Status != nil {
				rs = append(rs, metav1.APIResource{Name: d.Spec.Names.Plural + "/status", Namespaced: rs[0].Namespaced, Kind: d.Spec.Names.Kind, Verbs: metav1.Verbs{"get", "patch", "update"}})
			}
			if v.Subresources != nil && v.Subresources.Scale != nil {
				rs = append(rs, metav1.APIResource{Name: d.Spec.Names.Plural + "/scale", Namespaced: rs[0].Namespaced, Group: "autoscaling", Version: "v1", Kind: "Scale", Verbs: metav1.Verbs{"get", "patch", "update"}})
			}
			g.VersionedResources[v.Name] = append(g.VersionedResources[v.Name], rs...)
		}
	}
	var out []*restmapper.APIGroupResources
	for _, g := range byGroup {
		var versions []string
		for v := range g.VersionedResources {
			versions = append(versions, v)
		}
		sort.Slice(versions, func(i, j int) bool { return kubeversion.CompareKubeAwareVersionStrings(versions[i], versions[j]) > 0 })
		for _, v := range versions {
			g.Group.Versions = append(g.Group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: g.Group.Name + "/" + v, Version: v})
		}
		g.Group.PreferredVersion = g.Group.Versions[0]
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Group.Name < out[j].Group.Name })
	return out
}

// corpusCRDs returns the CRDs of the corpus, each once.
func corpusCRDs(t *testing.T) []*crdschema.CustomResourceDefinition {
	t.Helper()
	var files []string
	if dir := sharedCorpus(); dir != "" {
		files, _ = filepath.Glob(filepath.Join(dir, "*", "*.yaml"))
	} else {
		t.Log("the shared corpus (shared/corpus/crds beside the repository, or $CRDSCHEMA_CORPUS) is not there: the conformance suite's realworld cases instead")
		files, _ = filepath.Glob("../conformance/testdata/cases/realworld/*/*.yaml")
	}
	if len(files) == 0 {
		t.Fatal("no CRD of the corpus")
	}
	seen := map[string]bool{}
	var out []*crdschema.CustomResourceDefinition
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(f, "realworld") {
			// A case file: the CRD is its crd field.
			var c struct {
				CRD map[string]any `json:"crd"`
			}
			if err := yaml.Unmarshal(data, &c); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if c.CRD == nil {
				continue
			}
			if data, err = yaml.Marshal(c.CRD); err != nil {
				t.Fatal(err)
			}
		}
		defs, err := readall.CRDs(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, d := range defs {
			key := mapperKey(d)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, d)
		}
	}
	t.Logf("%d CRDs of %d files", len(out), len(files))
	return out
}

// mapperKey identifies what of a CRD a REST mapper sees.
func mapperKey(d *crdschema.CustomResourceDefinition) string {
	n := d.Spec.Names
	key := fmt.Sprintf("%s %s %s %s %s %s %q", d.Name, d.Spec.Group, n.Kind, n.Plural, n.Singular, d.Spec.Scope, n.ShortNames)
	for _, v := range d.Spec.Versions {
		key += fmt.Sprintf(" %s:%t", v.Name, v.Served)
	}
	return key
}

func sharedCorpus() string {
	for _, d := range []string{os.Getenv("CRDSCHEMA_CORPUS"), "../../shared/corpus/crds", "/work/shared/corpus/crds"} {
		if d == "" {
			continue
		}
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	return ""
}
