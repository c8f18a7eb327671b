package fakeclient

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/printer"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// kind is a custom resource kind served by one CRD.
type kind struct {
	def        *crdschema.CustomResourceDefinition
	gk         schema.GroupKind
	resource   schema.GroupResource // plural
	singular   string
	shortNames []string
	listKind   string
	namespaced bool
	storage    *version
	fm         fieldManagers
	versions   map[string]*version // served versions
	// convertible tells whether objects can be read and written in every
	// served version (conversion strategy None).
	convertible bool
}

// version is one served version of a kind.
type version struct {
	kind *kind
	name string
	gvk  schema.GroupVersionKind
	// res is compiled on first use (see compile).
	res    *crd.Resource
	once   sync.Once
	resErr error
	def    *crdschema.CustomResourceDefinition
	opts   []crd.Option
	fields *printer.Fields
	status bool
	scale  *crdschema.CustomResourceSubresourceScale
	// warning is the deprecation warning of the version, if deprecated.
	warning string
}

func newKind(def *crdschema.CustomResourceDefinition, opts []crd.Option) (*kind, error) {
	k := &kind{
		def:        def,
		gk:         schema.GroupKind{Group: def.Spec.Group, Kind: def.Spec.Names.Kind},
		resource:   schema.GroupResource{Group: def.Spec.Group, Resource: def.Spec.Names.Plural},
		singular:   def.Spec.Names.Singular,
		shortNames: def.Spec.Names.ShortNames,
		listKind:   def.Spec.Names.ListKind,
		namespaced: def.Spec.Scope == "Namespaced",
		versions:   map[string]*version{},
	}
	if k.singular == "" {
		k.singular = strings.ToLower(k.gk.Kind)
	}
	if k.listKind == "" {
		k.listKind = k.gk.Kind + "List"
	}
	k.convertible = def.Spec.Conversion == nil || def.Spec.Conversion.Strategy == "" || def.Spec.Conversion.Strategy == "None"
	for i := range def.Spec.Versions {
		dv := &def.Spec.Versions[i]
		if !dv.Served && !dv.Storage {
			continue
		}
		v := &version{
			kind:   k,
			name:   dv.Name,
			gvk:    k.gk.WithVersion(dv.Name),
			def:    def,
			opts:   opts,
			fields: printer.NewFields(dv.SelectableFields, k.namespaced),
		}
		if dv.Subresources != nil {
			v.status = dv.Subresources.Status != nil
			v.scale = dv.Subresources.Scale
		}
		if dv.Deprecated {
			if dv.DeprecationWarning != nil {
				v.warning = *dv.DeprecationWarning
			} else {
				v.warning = fmt.Sprintf("%s/%s %s is deprecated", def.Spec.Group, dv.Name, k.gk.Kind)
			}
		}
		if dv.Storage {
			k.storage = v
		}
		if dv.Served {
			k.versions[dv.Name] = v
		}
	}
	if k.storage == nil {
		return nil, fmt.Errorf("no storage version")
	}
	return k, nil
}

// compile compiles the version with crd.New, once, on its first request:
// a client pays for the versions its test uses.
func (v *version) compile() error {
	v.once.Do(func() {
		// Build has validated the CRD.
		v.res, v.resErr = crd.New(v.def, v.name, append([]crd.Option{crd.WithoutValidation(), crd.WithLazyCompile()}, v.opts...)...)
		if v.resErr != nil {
			v.resErr = apierrors.NewInternalError(fmt.Errorf("compiling %s: %w", v.gvk, v.resErr))
		}
	})
	return v.resErr
}

// toStorage converts an initial object to the unstructured form it is stored
// in: its JSON, with the storage version's apiVersion.
func (k *kind) toStorage(obj runtime.Object, gvk schema.GroupVersionKind) (*unstructured.Unstructured, error) {
	m, err := toMap(obj, gvk)
	if err != nil {
		return nil, err
	}
	m["apiVersion"] = k.storage.gvk.GroupVersion().String()
	return &unstructured.Unstructured{Object: m}, nil
}

// toMap encodes obj as the client sends it: its JSON with apiVersion and kind
// set, decoded with Kubernetes' number model.
func toMap(obj runtime.Object, gvk schema.GroupVersionKind) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding %T: %w", obj, err)
	}
	m, err := decodeObject(data)
	if err != nil {
		return nil, fmt.Errorf("decoding %T: %w", obj, err)
	}
	m["apiVersion"] = gvk.GroupVersion().String()
	m["kind"] = gvk.Kind
	return m, nil
}
