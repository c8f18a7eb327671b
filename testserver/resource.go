package testserver

import (
	"context"
	"fmt"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/kubeapi"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/printer"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/endpoints/handlers"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// maxRequestBodyBytes is kube-apiserver's default limit of a request body.
const maxRequestBodyBytes = 3 * 1024 * 1024

// resourceKind is one resource the server serves: a CRD's kind, or a
// built-in kind stored as given. Its objects live in one memStore, in the
// storage version.
type resourceKind struct {
	gr         schema.GroupResource
	singular   string
	kind       string
	listKind   string
	namespaced bool
	shortNames []string
	categories []string
	// def is the CRD (nil for a built-in kind); it is served through
	// crdschema's pipeline.
	def            *crdschema.CustomResourceDefinition
	store          *memStore
	storageVersion string
	versions       map[string]*servedVersion // served versions
	order          []string                  // served versions, in the CRD's order
	server         *Server
	// tableConvertor of a built-in kind (name and age).
	tableConvertor rest.TableConvertor
	// prepareForCreate sets what the API server sets on a built-in kind
	// (a namespace's phase).
	prepareForCreate func(runtime.Object)
	// admitCreate and admitUpdate check and complete the objects of a
	// kind not served through crdschema's pipeline that has rules of its
	// own (CRDs); afterWrite and afterDelete see them once stored.
	admitCreate func(ctx context.Context, u *unstructured.Unstructured) (*unstructured.Unstructured, error)
	admitUpdate func(ctx context.Context, u, old *unstructured.Unstructured, status bool) (*unstructured.Unstructured, error)
	afterWrite  func(u *unstructured.Unstructured)
	afterDelete func(u *unstructured.Unstructured)
}

// servedVersion is one served version of a kind. Its request scopes and
// stores are built on its first request.
type servedVersion struct {
	kind    *resourceKind
	gvk     schema.GroupVersionKind
	fields  *printer.Fields
	status  bool
	scale   *crdschema.CustomResourceSubresourceScale
	warning string // the deprecation warning
	columns []crdschema.CustomResourceColumnDefinition

	once          sync.Once
	err           error
	res           *crd.Resource
	main          *serving
	statusServing *serving

	scaleOnce    sync.Once
	scaleErr     error
	scaleServing *scaleServing
}

// serving is what serves one (sub)resource of a version: the scope of the
// apiserver's handlers and the registry store behind it.
type serving struct {
	scope *handlers.RequestScope
	rest  *pipelineREST
}

func (k *resourceKind) gk() schema.GroupKind {
	return schema.GroupKind{Group: k.gr.Group, Kind: k.kind}
}

// supportsField tells whether a field selector may use label in version v.
func (k *resourceKind) supportsField(version, label string) bool {
	v := k.versions[version]
	if v == nil {
		return label == "metadata.name" || (k.namespaced && label == "metadata.namespace")
	}
	return v.fields.Supports(label)
}

// serve returns the serving of the version's main resource or its status.
func (v *servedVersion) serve(status bool) (*serving, error) {
	v.once.Do(func() { v.err = v.build() })
	if v.err != nil {
		return nil, v.err
	}
	if status {
		return v.statusServing, nil
	}
	return v.main, nil
}

func (v *servedVersion) build() error {
	k := v.kind
	if k.def != nil {
		res, err := newResource(k.def, v.gvk.Version, k.server.kubernetesVersion, k.server.cache)
		if err != nil {
			return fmt.Errorf("compiling %s: %w", v.gvk, err)
		}
		v.res = res
	}
	conv := converter{group: k.gr.Group, supportsField: k.supportsField}
	var tc managedfields.TypeConverter = managedfields.NewDeducedTypeConverter()
	var decoder *prune.Decoder
	if k.def != nil {
		var err error
		if tc, err = kubeapi.TypeConverter(k.def, k.order); err != nil {
			return err
		}
		if decoder, err = newRequestDecoder(k.def); err != nil {
			return err
		}
	}
	table := k.tableConvertor
	if table == nil {
		p, err := printer.New(v.columns, printer.WithClock(k.server.now))
		if err != nil {
			// The API server falls back to the default columns too.
			p, _ = printer.New(nil, printer.WithClock(k.server.now))
		}
		table = tableConvertor{p: p}
	}
	mk := func(sub string) (*serving, error) {
		st := &strategy{kind: k, version: v, subresource: sub}
		store := &genericregistry.Store{
			NewFunc: func() runtime.Object {
				u := &unstructured.Unstructured{}
				u.SetGroupVersionKind(v.gvk)
				return u
			},
			NewListFunc: func() runtime.Object {
				l := &unstructured.UnstructuredList{}
				l.SetGroupVersionKind(v.gvk.GroupVersion().WithKind(k.listKind))
				return l
			},
			PredicateFunc: func(label labels.Selector, field fields.Selector) storage.SelectionPredicate {
				return storage.SelectionPredicate{Label: label, Field: field, GetAttrs: v.attrs}
			},
			DefaultQualifiedResource:  k.gr,
			SingularQualifiedResource: schema.GroupResource{Group: k.gr.Group, Resource: k.singular},
			CreateStrategy:            st,
			UpdateStrategy:            st,
			DeleteStrategy:            st,
			ResetFieldsStrategy:       st,
			TableConvertor:            table,
		}
		if k.afterWrite != nil {
			store.AfterCreate = func(obj runtime.Object, o *metav1.CreateOptions) {
				if u, ok := obj.(*unstructured.Unstructured); ok && len(o.DryRun) == 0 {
					k.afterWrite(u)
				}
			}
			store.AfterUpdate = func(obj runtime.Object, o *metav1.UpdateOptions) {
				if u, ok := obj.(*unstructured.Unstructured); ok && len(o.DryRun) == 0 {
					k.afterWrite(u)
				}
			}
		}
		if k.afterDelete != nil {
			store.AfterDelete = func(obj runtime.Object, o *metav1.DeleteOptions) {
				if u, ok := obj.(*unstructured.Unstructured); ok && len(o.DryRun) == 0 {
					k.afterDelete(u)
				}
			}
		}
		view := versionView{
			memStore: k.store,
			served:   v.gvk.GroupVersion().String(),
			stored:   schema.GroupVersion{Group: k.gr.Group, Version: k.storageVersion}.String(),
		}
		if v.res != nil {
			view.read = v.res.ReadStored
		}
		opts := generic.RESTOptions{
			StorageConfig: &storagebackend.ConfigForResource{Config: storagebackend.Config{Codec: unstructured.UnstructuredJSONScheme}},
			Decorator: func(*storagebackend.ConfigForResource, string, func(runtime.Object) (string, error), func() runtime.Object, func() runtime.Object,
				storage.AttrFunc, storage.IndexerFuncs, *cache.Indexers) (storage.Interface, factory.DestroyFunc, error) {
				return view, func() {}, nil
			},
			EnableGarbageCollection: true,
			DeleteCollectionWorkers: 1,
			ResourcePrefix:          "/" + k.gr.Group + "/" + k.gr.Resource,
		}
		if err := store.CompleteWithOptions(&generic.StoreOptions{RESTOptions: opts, AttrFunc: v.attrs}); err != nil {
			return nil, err
		}
		paramScheme := runtime.NewScheme()
		paramScheme.AddUnversionedTypes(v.gvk.GroupVersion(), &metav1.ListOptions{}, &metav1.GetOptions{}, &metav1.DeleteOptions{})
		equivalent := runtime.NewEquivalentResourceRegistry()
		gvr := v.gvk.GroupVersion().WithResource(k.gr.Resource)
		equivalent.RegisterKindFor(gvr, sub, v.gvk)
		ns := newNegotiatedSerializer(conv, decoder)
		if k.def == nil && k.gr.Group != crdGR.Group {
			ns.media = append(ns.media, protobufBridge())
		}
		scope := &handlers.RequestScope{
			Namer:                    handlers.ContextBasedNaming{Namer: meta.NewAccessor(), ClusterScoped: !k.namespaced},
			Serializer:               ns,
			ParameterCodec:           runtime.NewParameterCodec(paramScheme),
			StandardSerializers:      ns.media,
			Creater:                  unstructuredCreator{},
			Convertor:                conv,
			Defaulter:                noDefaults{},
			Typer:                    unstructuredTyper{},
			UnsafeConvertor:          conv,
			EquivalentResourceMapper: equivalent,
			Resource:                 gvr,
			Kind:                     v.gvk,
			HubGroupVersion:          v.gvk.GroupVersion(),
			MetaGroupVersion:         metav1.SchemeGroupVersion,
			TableConvertor:           store,
			Subresource:              sub,
			MaxRequestBodyBytes:      maxRequestBodyBytes,
			Authorizer:               allowAll{},
		}
		fm, err := managedfields.NewDefaultCRDFieldManager(tc, conv, noDefaults{}, unstructuredCreator{}, v.gvk, v.gvk.GroupVersion(), sub,
			fieldpath.NewExcludeFilterSetMap(st.GetResetFields()))
		if err != nil {
			return nil, err
		}
		scope.FieldManager = fm
		return &serving{scope: scope, rest: &pipelineREST{Store: store, version: v, status: sub == "status"}}, nil
	}
	var err error
	if v.main, err = mk(""); err != nil {
		return err
	}
	if v.status {
		if v.statusServing, err = mk("status"); err != nil {
			return err
		}
	}
	return nil
}

type noDefaults struct{}

func (noDefaults) Default(runtime.Object) {}

// attrs returns the labels and the fields field selectors match.
func (v *servedVersion) attrs(obj runtime.Object) (labels.Set, fields.Set, error) {
	u, err := asUnstructured(obj)
	if err != nil {
		return nil, nil, err
	}
	f, err := v.fields.Set(u.Object)
	if err != nil {
		return nil, nil, err
	}
	return labels.Set(u.GetLabels()), fields.Set(f), nil
}

// strategy is the registry's strategy of a kind: it leaves every decision
// to crdschema's pipeline, which pipelineREST runs before the registry store
// sees the object; for a built-in kind, objects are stored as given.
type strategy struct {
	kind        *resourceKind
	version     *servedVersion
	subresource string
}

func (s *strategy) ObjectKinds(obj runtime.Object) ([]schema.GroupVersionKind, bool, error) {
	return unstructuredTyper{}.ObjectKinds(obj)
}
func (s *strategy) Recognizes(gvk schema.GroupVersionKind) bool { return true }
func (s *strategy) GenerateName(base string) string             { return s.kind.server.generateName(base) }
func (s *strategy) NamespaceScoped() bool                       { return s.kind.namespaced }
func (s *strategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	if s.kind.prepareForCreate != nil {
		s.kind.prepareForCreate(obj)
	}
}
func (s *strategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList { return nil }
func (s *strategy) WarningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	return nil
}
func (s *strategy) Canonicalize(obj runtime.Object)          {}
func (s *strategy) AllowCreateOnUpdate(context.Context) bool { return false }

// PrepareForUpdate sets the generation the pipeline gave: the registry
// store resets it to the stored one before (the API server's strategy
// bumps it here). It is bumped when more than the metadata changed; a
// status write never bumps it.
func (s *strategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	if s.kind.def == nil || s.subresource != "" {
		return
	}
	u, ok1 := obj.(*unstructured.Unstructured)
	o, ok2 := old.(*unstructured.Unstructured)
	if !ok1 || !ok2 {
		return
	}
	for k, v := range u.Object {
		if k != "metadata" && !equalJSON(v, o.Object[k]) {
			u.SetGeneration(o.GetGeneration() + 1)
			return
		}
	}
	for k := range o.Object {
		if _, ok := u.Object[k]; !ok && k != "metadata" {
			u.SetGeneration(o.GetGeneration() + 1)
			return
		}
	}
}
func (s *strategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	return nil
}
func (s *strategy) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	return nil
}
func (s *strategy) AllowUnconditionalUpdate(context.Context) bool { return s.kind.def == nil }

// GetResetFields are the fields a write of the (sub)resource leaves as they
// are: the status for the main resource, all else for the status.
func (s *strategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	out := map[fieldpath.APIVersion]*fieldpath.Set{}
	for _, name := range s.kind.order {
		v := s.kind.versions[name]
		if !v.status {
			continue
		}
		key := fieldpath.APIVersion(v.gvk.GroupVersion().String())
		if s.subresource == "status" {
			out[key] = fieldpath.NewSet(fieldpath.MakePathOrDie("metadata"), fieldpath.MakePathOrDie("spec"))
		} else {
			out[key] = fieldpath.NewSet(fieldpath.MakePathOrDie("status"))
		}
	}
	return out
}

// tableConvertor renders a CRD version's printer columns.
type tableConvertor struct{ p *printer.Printer }

func (t tableConvertor) ConvertToTable(ctx context.Context, obj runtime.Object, opts runtime.Object) (*metav1.Table, error) {
	table := &metav1.Table{}
	for _, c := range t.p.Columns() {
		table.ColumnDefinitions = append(table.ColumnDefinitions, metav1.TableColumnDefinition{
			Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority,
		})
	}
	add := func(u *unstructured.Unstructured) {
		table.Rows = append(table.Rows, metav1.TableRow{
			Cells:  t.p.Row(u.Object),
			Object: runtime.RawExtension{Object: u},
		})
	}
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		add(o)
		table.ResourceVersion = o.GetResourceVersion()
	case *unstructured.UnstructuredList:
		for i := range o.Items {
			add(&o.Items[i])
		}
		table.ResourceVersion = o.GetResourceVersion()
		table.Continue = o.GetContinue()
		table.RemainingItemCount = o.GetRemainingItemCount()
	default:
		return nil, fmt.Errorf("cannot render %T as a table", obj)
	}
	if to, ok := opts.(*metav1.TableOptions); ok && to != nil && to.NoHeaders {
		table.ColumnDefinitions = nil
	}
	return table, nil
}

// allowAll authorizes every request: the server has one user, an
// administrator.
type allowAll struct{}

func (allowAll) Authorize(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionAllow, "", nil
}
