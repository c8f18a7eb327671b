package fakeclient

import (
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// innerScheme copies the types of s except the CRDs' kinds and their lists,
// for the wrapped controller-runtime fake client: objects of the CRDs' kinds
// are stored as the API server stores them, as JSON, never as Go values that
// could drop fields the Go type lacks. s itself is not modified.
func innerScheme(s *runtime.Scheme, kinds map[schema.GroupKind]*kind) *runtime.Scheme {
	lists := map[schema.GroupKind]bool{}
	for gk, k := range kinds {
		lists[schema.GroupKind{Group: gk.Group, Kind: k.listKind}] = true
	}
	out := runtime.NewScheme()
	for gvk, t := range s.AllKnownTypes() {
		gk := gvk.GroupKind()
		if kinds[gk] != nil || lists[gk] {
			continue
		}
		if strings.HasSuffix(gvk.Kind, "List") && kinds[schema.GroupKind{Group: gk.Group, Kind: strings.TrimSuffix(gvk.Kind, "List")}] != nil {
			continue
		}
		obj, ok := reflect.New(t).Interface().(runtime.Object)
		if !ok {
			continue
		}
		out.AddKnownTypeWithName(gvk, obj)
	}
	return out
}
