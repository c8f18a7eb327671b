package fakeclient

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// newMapper returns the REST mapper of the client: the CRDs' kinds, plurals,
// singulars, short names and scopes first, then next (when not nil).
func newMapper(kinds map[schema.GroupKind]*kind, next meta.RESTMapper) meta.RESTMapper {
	var gvs []schema.GroupVersion
	m := &crdMapper{short: map[string][]schema.GroupResource{}}
	for _, k := range kinds {
		for _, v := range k.versions {
			gvs = append(gvs, v.gvk.GroupVersion())
		}
	}
	dm := meta.NewDefaultRESTMapper(gvs)
	for _, k := range kinds {
		scope := meta.RESTScopeRoot
		if k.namespaced {
			scope = meta.RESTScopeNamespace
		}
		for _, v := range k.versions {
			gv := v.gvk.GroupVersion()
			dm.AddSpecific(v.gvk, gv.WithResource(k.resource.Resource), gv.WithResource(k.singular), scope)
		}
		for _, s := range k.shortNames {
			m.short[strings.ToLower(s)] = append(m.short[strings.ToLower(s)], k.resource)
		}
	}
	m.DefaultRESTMapper = dm
	if next == nil {
		next = meta.NewDefaultRESTMapper(nil)
	}
	return meta.MultiRESTMapper{m, next}
}

// crdMapper is a DefaultRESTMapper that also expands the CRDs' short names,
// as kubectl's discovery-based mapper does.
type crdMapper struct {
	*meta.DefaultRESTMapper
	short map[string][]schema.GroupResource
}

func (m *crdMapper) expand(r schema.GroupVersionResource) schema.GroupVersionResource {
	for _, gr := range m.short[strings.ToLower(r.Resource)] {
		if r.Group == "" || r.Group == gr.Group {
			r.Group, r.Resource = gr.Group, gr.Resource
			return r
		}
	}
	return r
}

func (m *crdMapper) KindFor(r schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	return m.DefaultRESTMapper.KindFor(m.expand(r))
}

func (m *crdMapper) KindsFor(r schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	return m.DefaultRESTMapper.KindsFor(m.expand(r))
}

func (m *crdMapper) ResourceFor(r schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	return m.DefaultRESTMapper.ResourceFor(m.expand(r))
}

func (m *crdMapper) ResourcesFor(r schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	return m.DefaultRESTMapper.ResourcesFor(m.expand(r))
}
