package fakeclient

import (
	"fmt"
	"strings"
	"sync"

	"github.com/crdschema/crdschema/internal/kubeapi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// fieldManagers are a kind's field managers, built on first use from the
// CRD's published OpenAPI v3 schemas.
type fieldManagers struct {
	once sync.Once
	tc   managedfields.TypeConverter
	err  error
	mu   sync.Mutex
	fms  map[string]*managedfields.FieldManager // by version and subresource
}

func (k *kind) typeConverter() (managedfields.TypeConverter, error) {
	k.fm.once.Do(func() {
		names := make([]string, 0, len(k.versions))
		for _, v := range k.versions {
			names = append(names, v.name)
		}
		k.fm.tc, k.fm.err = kubeapi.TypeConverter(k.def, names)
	})
	return k.fm.tc, k.fm.err
}

// fieldManager returns the field manager of version v and a subresource,
// as the API server builds it for a CRD.
func (v *version) fieldManager(sub subresource) (*managedfields.FieldManager, error) {
	k := v.kind
	tc, err := k.typeConverter()
	if err != nil {
		return nil, err
	}
	key := v.name
	subName := ""
	if sub == subStatus {
		key += "/status"
		subName = "status"
	}
	k.fm.mu.Lock()
	defer k.fm.mu.Unlock()
	if fm := k.fm.fms[key]; fm != nil {
		return fm, nil
	}
	reset := map[fieldpath.APIVersion]*fieldpath.Set{}
	for _, sv := range k.versions {
		if !sv.status {
			continue
		}
		gv := fieldpath.APIVersion(sv.gvk.GroupVersion().String())
		if sub == subStatus {
			reset[gv] = fieldpath.NewSet(fieldpath.MakePathOrDie("metadata"), fieldpath.MakePathOrDie("spec"))
		} else {
			reset[gv] = fieldpath.NewSet(fieldpath.MakePathOrDie("status"))
		}
	}
	filters := map[fieldpath.APIVersion]fieldpath.Filter{}
	for gv, s := range reset {
		filters[gv] = fieldpath.NewExcludeSetFilter(s)
	}
	fm, err := managedfields.NewDefaultCRDFieldManager(tc, unstructuredConverter{}, noDefaults{}, unstructuredCreater{}, v.gvk, k.storage.gvk.GroupVersion(), subName, filters)
	if err != nil {
		return nil, err
	}
	if k.fm.fms == nil {
		k.fm.fms = map[string]*managedfields.FieldManager{}
	}
	k.fm.fms[key] = fm
	return fm, nil
}

// unstructuredConverter converts objects of a CRD between versions as
// conversion strategy None does: by setting the apiVersion.
type unstructuredConverter struct{}

func (unstructuredConverter) Convert(in, out, _ any) error {
	ui, ok1 := in.(*unstructured.Unstructured)
	uo, ok2 := out.(*unstructured.Unstructured)
	if !ok1 || !ok2 {
		return fmt.Errorf("cannot convert %T to %T", in, out)
	}
	uo.Object = runtime.DeepCopyJSON(ui.Object)
	return nil
}

func (unstructuredConverter) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	u, ok := in.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("cannot convert %T", in)
	}
	out := u.DeepCopy()
	if k, ok := gv.KindForGroupVersionKinds([]schema.GroupVersionKind{u.GroupVersionKind()}); ok {
		out.SetGroupVersionKind(k)
	}
	return out, nil
}

func (unstructuredConverter) ConvertFieldLabel(_ schema.GroupVersionKind, label, value string) (string, string, error) {
	return label, value, nil
}

type noDefaults struct{}

func (noDefaults) Default(runtime.Object) {}

type unstructuredCreater struct{}

func (unstructuredCreater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// defaultManager is the field manager of writes that name none: the API
// server takes the prefix of the user agent, which client-go sets to the
// program's name ("mycontroller.test/v0.0.0 (linux/amd64) ...").
var defaultManager = strings.Split(rest.DefaultKubernetesUserAgent(), "/")[0]

// trackUpdate records a write other than an apply in the managedFields of
// out (a new map; live and out are not modified), as the API server's field
// manager does; live is the stored object, nil on create. When the schema
// cannot be converted, the managedFields of live are kept.
func (v *version) trackUpdate(live, out map[string]any, sub subresource, manager string) map[string]any {
	fm, err := v.fieldManager(sub)
	if err != nil {
		return out
	}
	if manager == "" {
		manager = defaultManager
	}
	liveObj := &unstructured.Unstructured{Object: map[string]any{}}
	if live != nil {
		liveObj.Object = runtime.DeepCopyJSON(live)
	}
	liveObj.SetGroupVersionKind(v.gvk)
	newObj := &unstructured.Unstructured{Object: shallowWithMetadata(out)}
	res := fm.UpdateNoErrors(liveObj, newObj, manager)
	if u, ok := res.(*unstructured.Unstructured); ok {
		return u.Object
	}
	return out
}

// shallowWithMetadata copies m and its metadata, which the field manager
// writes.
func shallowWithMetadata(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, val := range m {
		c[k] = val
	}
	if md, ok := m["metadata"].(map[string]any); ok {
		mc := make(map[string]any, len(md))
		for k, val := range md {
			mc[k] = val
		}
		c["metadata"] = mc
	}
	return c
}
