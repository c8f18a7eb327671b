package fakeclient

import (
	"context"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubeversion "k8s.io/apimachinery/pkg/version"
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
	// Versions are preferred as discovery orders them: v1 before v1beta1.
	var pm meta.PriorityRESTMapper
	for _, k := range kinds {
		var vs []string
		for name := range k.versions {
			vs = append(vs, name)
		}
		sort.Slice(vs, func(i, j int) bool { return kubeversion.CompareKubeAwareVersionStrings(vs[i], vs[j]) > 0 })
		for _, v := range vs {
			pm.ResourcePriority = append(pm.ResourcePriority, schema.GroupVersionResource{Group: k.gk.Group, Version: v, Resource: meta.AnyResource})
			pm.KindPriority = append(pm.KindPriority, schema.GroupVersionKind{Group: k.gk.Group, Version: v, Kind: meta.AnyKind})
		}
	}
	if next == nil {
		next = meta.NewDefaultRESTMapper(nil)
	}
	pm.Delegate = meta.MultiRESTMapper{m, next}
	return pm
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

func (m *crdMapper) KindForWithContext(ctx context.Context, r schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	return m.DefaultRESTMapper.KindForWithContext(ctx, m.expand(r))
}

func (m *crdMapper) KindsForWithContext(ctx context.Context, r schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	return m.DefaultRESTMapper.KindsForWithContext(ctx, m.expand(r))
}

func (m *crdMapper) ResourceForWithContext(ctx context.Context, r schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	return m.DefaultRESTMapper.ResourceForWithContext(ctx, m.expand(r))
}

func (m *crdMapper) ResourcesForWithContext(ctx context.Context, r schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	return m.DefaultRESTMapper.ResourcesForWithContext(ctx, m.expand(r))
}
