package fakeclient

import (
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubeversion "k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/restmapper"
)

// newMapper returns the REST mapper of the client: the CRDs' kinds as a
// client's discovery mapper (restmapper.NewDiscoveryRESTMapper) maps them
// from the API server's discovery of the CRDs, with their short names
// expanded as kubectl expands them, then next (when not nil) for what no
// CRD serves.
//
// The mapper implements meta.RESTMapper only: apimachinery releases that
// have meta.RESTMapperWithContext wrap it (meta.ToRESTMapperWithContext).
func newMapper(kinds map[schema.GroupKind]*kind, next meta.RESTMapper) meta.RESTMapper {
	m := &crdMapper{
		discovery: restmapper.NewDiscoveryRESTMapper(discovery(kinds)),
		names:     map[string][]string{},
		short:     map[string][]schema.GroupResource{},
		next:      next,
	}
	for _, k := range kinds {
		m.names[k.resource.Resource] = append(m.names[k.resource.Resource], k.gk.Group)
		m.names[k.singular] = append(m.names[k.singular], k.gk.Group)
		for _, s := range k.shortNames {
			m.short[strings.ToLower(s)] = append(m.short[strings.ToLower(s)], k.resource)
		}
	}
	for _, grs := range m.short {
		sort.Slice(grs, func(i, j int) bool { return grs[i].Group < grs[j].Group })
	}
	return m
}

// discovery returns the API groups and resources the API server's discovery
// serves for the CRDs' kinds: groups in alphabetical order (all CRD groups
// have the same priority), each group's served versions in Kubernetes
// version order (v1 before v1beta1), the first one preferred.
func discovery(kinds map[schema.GroupKind]*kind) []*restmapper.APIGroupResources {
	groups := map[string]*restmapper.APIGroupResources{}
	for _, k := range kinds {
		g := groups[k.gk.Group]
		if g == nil {
			g = &restmapper.APIGroupResources{
				Group:              metav1.APIGroup{Name: k.gk.Group},
				VersionedResources: map[string][]metav1.APIResource{},
			}
			groups[k.gk.Group] = g
		}
		for name := range k.versions {
			g.VersionedResources[name] = append(g.VersionedResources[name], metav1.APIResource{
				Name:         k.resource.Resource,
				SingularName: k.singular,
				Namespaced:   k.namespaced,
				Kind:         k.gk.Kind,
				ShortNames:   k.shortNames,
			})
		}
	}
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]*restmapper.APIGroupResources, len(names))
	for i, name := range names {
		g := groups[name]
		versions := make([]string, 0, len(g.VersionedResources))
		for v, rs := range g.VersionedResources {
			versions = append(versions, v)
			sort.Slice(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
		}
		sort.Slice(versions, func(i, j int) bool {
			return kubeversion.CompareKubeAwareVersionStrings(versions[i], versions[j]) > 0
		})
		for _, v := range versions {
			g.Group.Versions = append(g.Group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: name + "/" + v, Version: v})
		}
		g.Group.PreferredVersion = g.Group.Versions[0]
		out[i] = g
	}
	return out
}

// crdMapper maps the CRDs' kinds with a discovery mapper, expanding short
// names, and asks next about what the CRDs do not serve.
type crdMapper struct {
	discovery meta.RESTMapper
	names     map[string][]string // plurals and singulars: their groups
	short     map[string][]schema.GroupResource
	next      meta.RESTMapper
}

// expand replaces a short name by the resource it stands for, as kubectl's
// shortcut expander (restmapper.NewShortcutExpander) does: not when it is
// the plural or singular of a resource (of the group asked for, if any),
// a CRD's or one next knows.
func (m *crdMapper) expand(r schema.GroupVersionResource) schema.GroupVersionResource {
	short := m.short[strings.ToLower(r.Resource)]
	if len(short) == 0 {
		return r
	}
	for _, g := range m.names[r.Resource] {
		if r.Group == "" || r.Group == g {
			return r
		}
	}
	if m.next != nil {
		if _, err := m.next.ResourcesFor(r); err == nil {
			return r
		}
	}
	for _, gr := range short {
		if r.Group == "" || r.Group == gr.Group {
			r.Group, r.Resource = gr.Group, gr.Resource
			return r
		}
	}
	return r
}

// fallBack reports whether next is asked after the discovery mapper
// answered err.
func (m *crdMapper) fallBack(err error) bool {
	return err != nil && m.next != nil && meta.IsNoMatchError(err)
}

func (m *crdMapper) KindFor(r schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	out, err := m.discovery.KindFor(m.expand(r))
	if m.fallBack(err) {
		return m.next.KindFor(r)
	}
	return out, err
}

func (m *crdMapper) KindsFor(r schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	out, err := m.discovery.KindsFor(m.expand(r))
	if m.fallBack(err) {
		return m.next.KindsFor(r)
	}
	return out, err
}

func (m *crdMapper) ResourceFor(r schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	out, err := m.discovery.ResourceFor(m.expand(r))
	if m.fallBack(err) {
		return m.next.ResourceFor(r)
	}
	return out, err
}

func (m *crdMapper) ResourcesFor(r schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	out, err := m.discovery.ResourcesFor(m.expand(r))
	if m.fallBack(err) {
		return m.next.ResourcesFor(r)
	}
	return out, err
}

func (m *crdMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	out, err := m.discovery.RESTMapping(gk, versions...)
	if m.fallBack(err) {
		return m.next.RESTMapping(gk, versions...)
	}
	return out, err
}

func (m *crdMapper) RESTMappings(gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	out, err := m.discovery.RESTMappings(gk, versions...)
	if m.fallBack(err) {
		return m.next.RESTMappings(gk, versions...)
	}
	return out, err
}

func (m *crdMapper) ResourceSingularizer(resource string) (string, error) {
	out, err := m.discovery.ResourceSingularizer(m.expand(schema.GroupVersionResource{Resource: resource}).Resource)
	if err != nil && m.next != nil {
		return m.next.ResourceSingularizer(resource)
	}
	return out, err
}
