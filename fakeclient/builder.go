package fakeclient

import (
	"errors"
	"fmt"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// ClientBuilder builds a fake client. Its methods are those of
// controller-runtime's fake.ClientBuilder, plus the CRDs the client serves:
// WithCRDFiles, WithCRDs, WithCRDDefinitions and WithCRDSet. Its zero
// value is not usable: start with NewClientBuilder.
type ClientBuilder struct {
	scheme              *runtime.Scheme
	restMapper          meta.RESTMapper
	objects             []runtime.Object
	statusSubresource   []client.Object
	interceptors        *interceptor.Funcs
	typeConverters      []managedfields.TypeConverter
	returnManagedFields bool
	globalRV            bool
	indexes             []index
	warnings            rest.WarningHandler
	resourceOptions     []crd.Option
	kubernetesVersion   crdschema.KubernetesVersion

	crdFiles []string
	crdsV1   []*apiextensionsv1.CustomResourceDefinition
	crds     []*crdschema.CustomResourceDefinition
	crdSets  []*CRDSet
	built    bool
}

type index struct {
	obj     runtime.Object
	field   string
	extract client.IndexerFunc
}

// NewClientBuilder returns a builder of a fake client.
func NewClientBuilder() *ClientBuilder {
	return &ClientBuilder{}
}

// WithScheme sets the scheme that maps Go types to kinds. The default is
// client-go's scheme.Scheme.
func (b *ClientBuilder) WithScheme(s *runtime.Scheme) *ClientBuilder {
	b.scheme = s
	return b
}

// WithRESTMapper sets the REST mapper of the kinds no CRD serves; the
// mappings of the CRDs' kinds come first. The default is an empty
// meta.DefaultRESTMapper, as in controller-runtime's fake client.
func (b *ClientBuilder) WithRESTMapper(m meta.RESTMapper) *ClientBuilder {
	b.restMapper = m
	return b
}

// WithObjects adds objects the client starts with. Objects of the CRDs'
// kinds are stored as given, as if they had been read from etcd: reads return
// them pruned and defaulted.
func (b *ClientBuilder) WithObjects(objs ...client.Object) *ClientBuilder {
	for _, o := range objs {
		b.objects = append(b.objects, o)
	}
	return b
}

// WithLists adds the items of lists the client starts with.
func (b *ClientBuilder) WithLists(lists ...client.ObjectList) *ClientBuilder {
	for _, l := range lists {
		b.objects = append(b.objects, l)
	}
	return b
}

// WithRuntimeObjects adds objects the client starts with.
func (b *ClientBuilder) WithRuntimeObjects(objs ...runtime.Object) *ClientBuilder {
	b.objects = append(b.objects, objs...)
	return b
}

// WithIndex registers an index, as controller-runtime's fake client does,
// that List with a field selector on field uses (emulating a cache index).
// For the CRDs' kinds, a field selector on a field that has no index is
// matched as the API server matches it: metadata.name, metadata.namespace
// and the version's selectableFields, other fields refused.
func (b *ClientBuilder) WithIndex(obj runtime.Object, field string, extractValue client.IndexerFunc) *ClientBuilder {
	b.indexes = append(b.indexes, index{obj, field, extractValue})
	return b
}

// WithStatusSubresource gives kinds no CRD serves a status subresource, as in
// controller-runtime's fake client. The CRDs' kinds need not be named: their
// subresources come from the CRD.
func (b *ClientBuilder) WithStatusSubresource(objs ...client.Object) *ClientBuilder {
	b.statusSubresource = append(b.statusSubresource, objs...)
	return b
}

// WithInterceptorFuncs intercepts the client's methods; the interceptors see
// every call, before the CRDs' pipeline.
func (b *ClientBuilder) WithInterceptorFuncs(funcs interceptor.Funcs) *ClientBuilder {
	b.interceptors = &funcs
	return b
}

// WithTypeConverters adds type converters for server-side apply of kinds no
// CRD serves. The CRDs' kinds use a converter built from their published
// OpenAPI schemas.
func (b *ClientBuilder) WithTypeConverters(tcs ...managedfields.TypeConverter) *ClientBuilder {
	b.typeConverters = append(b.typeConverters, tcs...)
	return b
}

// WithReturnManagedFields makes the client return managedFields on objects.
func (b *ClientBuilder) WithReturnManagedFields() *ClientBuilder {
	b.returnManagedFields = true
	return b
}

// WithGlobalResourceVersionCounter makes resourceVersions come from one
// counter, as the API server's do. It needs controller-runtime v0.25 or
// later: with an older release, Build fails.
func (b *ClientBuilder) WithGlobalResourceVersionCounter() *ClientBuilder {
	b.globalRV = true
	return b
}

// WithWarningHandler receives the warnings the API server would return with a
// write (unknown fields, deprecated versions). The default logs them as
// client-go's default handler does.
func (b *ClientBuilder) WithWarningHandler(h rest.WarningHandler) *ClientBuilder {
	b.warnings = h
	return b
}

// WithKubernetesVersion makes the client answer as the API server of the
// Kubernetes release v (crdschema.ParseKubernetesVersion; the default is
// 1.37): CRDs are validated, and objects created and updated, with that
// release's CEL environment, cost estimates, checks and error texts.
func (b *ClientBuilder) WithKubernetesVersion(v crdschema.KubernetesVersion) *ClientBuilder {
	b.kubernetesVersion = v
	return b
}

// WithResourceOptions passes options to every crd.New: a clock for
// creationTimestamp, the uid and generateName suffix generators.
func (b *ClientBuilder) WithResourceOptions(opts ...crd.Option) *ClientBuilder {
	b.resourceOptions = append(b.resourceOptions, opts...)
	return b
}

// WithCRDFiles adds the CRDs of files and folders: YAML (several documents
// each) or JSON; documents of other kinds are skipped. A folder contributes
// the files below it, in its subfolders too, whose names end in .yaml, .yml
// or .json, as crdcheck -crds reads it, so that kubebuilder's config/crd
// (bases/, kustomization.yaml) can be given as is; in a folder, CRD
// documents without group, kind and versions (kustomize patches, as
// kubebuilder's patches/) are skipped too. A path in which no CRD is found
// fails Build.
func (b *ClientBuilder) WithCRDFiles(paths ...string) *ClientBuilder {
	b.crdFiles = append(b.crdFiles, paths...)
	return b
}

// WithCRDs adds CRDs given as apiextensions.k8s.io/v1 values.
func (b *ClientBuilder) WithCRDs(crds ...*apiextensionsv1.CustomResourceDefinition) *ClientBuilder {
	b.crdsV1 = append(b.crdsV1, crds...)
	return b
}

// WithCRDDefinitions adds CRDs given as crdschema values.
func (b *ClientBuilder) WithCRDDefinitions(crds ...*crdschema.CustomResourceDefinition) *ClientBuilder {
	b.crds = append(b.crds, crds...)
	return b
}

// CRDError is a CustomResourceDefinition that the API server would refuse.
// Error returns the API server's message.
type CRDError struct {
	// Name is the CRD's metadata.name.
	Name string
	// Source is the file the CRD came from, if any.
	Source string
	// Errors are the API server's field errors.
	Errors crdschema.ErrorList
}

func (e *CRDError) Error() string {
	msg := fmt.Sprintf("CustomResourceDefinition.apiextensions.k8s.io %q is invalid: %s", e.Name, aggregate(e.Errors))
	if e.Source != "" {
		msg = e.Source + ": " + msg
	}
	return msg
}

// Build validates and compiles the CRDs and returns the client. A CRD the
// API server would refuse fails the build with a *CRDError; so do two CRDs
// of the same name or serving the same kind, a path of WithCRDFiles in which
// no CRD is found, and initial objects that cannot be stored. Build may be
// called once.
func (b *ClientBuilder) Build() (client.WithWatch, error) {
	if b.built {
		return nil, errors.New("fakeclient: Build called twice on one ClientBuilder")
	}
	b.built = true
	userScheme := b.scheme
	if userScheme == nil {
		userScheme = scheme.Scheme
	}
	set, err := b.crdSet()
	if err != nil {
		return nil, err
	}
	c := &fakeClient{
		scheme:   userScheme,
		kinds:    set.kinds,
		versions: map[schema.GroupVersionKind]*version{},
		lists:    map[schema.GroupVersionKind]*version{},
		groups:   map[string]bool{},
		warnings: b.warnings,
		indexes:  map[schema.GroupVersionKind]map[string]client.IndexerFunc{},
	}
	if c.warnings == nil {
		c.warnings = rest.WarningLogger{}
	}
	for _, k := range set.kinds {
		c.groups[k.gk.Group] = true
		for _, v := range k.versions {
			c.versions[v.gvk] = v
			c.lists[v.gvk.GroupVersion().WithKind(k.listKind)] = v
		}
	}
	c.mapper = newMapper(c.kinds, b.restMapper)

	// The other kinds live in a controller-runtime fake client (inner),
	// built when a test first uses one of them, or at once when the
	// builder gives it objects or options to check.
	inner := fake.NewClientBuilder()
	innerNeeded := false
	// The CRDs' objects live in a fake client of their own, whose tracker
	// keeps no managedFields: the client computes them (server-side apply).
	ss := runtime.NewScheme()
	store := fake.NewClientBuilder().WithScheme(ss).
		WithObjectTracker(storeTracker{testing.NewObjectTracker(ss, serializer.NewCodecFactory(ss).UniversalDecoder())})
	if b.restMapper != nil {
		inner.WithRESTMapper(b.restMapper)
	}
	var crdObjects []runtime.Object
	for _, o := range b.objects {
		items := []runtime.Object{o}
		if meta.IsListType(o) {
			if items, err = meta.ExtractList(o); err != nil {
				return nil, fmt.Errorf("fakeclient: initial list %T: %w", o, err)
			}
		}
		for _, it := range items {
			gvk, err := apiutil.GVKForObject(it, userScheme)
			if err != nil {
				return nil, fmt.Errorf("fakeclient: initial object %T: %w", it, err)
			}
			if v := c.versions[gvk]; v != nil {
				u, err := v.kind.toStorage(it, gvk)
				if err != nil {
					return nil, fmt.Errorf("fakeclient: initial object %s: %w", gvk.Kind, err)
				}
				crdObjects = append(crdObjects, u)
			} else if c.kinds[gvk.GroupKind()] != nil {
				return nil, fmt.Errorf("fakeclient: initial object of kind %s: version %s is not served", gvk.GroupKind(), gvk.Version)
			} else {
				inner.WithRuntimeObjects(it)
				innerNeeded = true
			}
		}
	}
	store.WithRuntimeObjects(crdObjects...)
	for _, o := range b.statusSubresource {
		gvk, err := apiutil.GVKForObject(o, userScheme)
		if err != nil {
			return nil, fmt.Errorf("fakeclient: WithStatusSubresource(%T): %w", o, err)
		}
		if c.kinds[gvk.GroupKind()] == nil {
			inner.WithStatusSubresource(o)
			innerNeeded = true
		}
	}
	for _, ix := range b.indexes {
		gvk, err := apiutil.GVKForObject(ix.obj, userScheme)
		if err != nil {
			return nil, fmt.Errorf("fakeclient: WithIndex(%T): %w", ix.obj, err)
		}
		if c.kinds[gvk.GroupKind()] == nil {
			inner.WithIndex(ix.obj, ix.field, ix.extract)
			innerNeeded = true
			continue
		}
		if c.indexes[gvk] == nil {
			c.indexes[gvk] = map[string]client.IndexerFunc{}
		}
		if _, dup := c.indexes[gvk][ix.field]; dup {
			return nil, fmt.Errorf("fakeclient: WithIndex: field %s of %s is indexed twice", ix.field, gvk)
		}
		c.indexes[gvk][ix.field] = ix.extract
	}
	if len(b.typeConverters) > 0 {
		inner.WithTypeConverters(b.typeConverters...)
	}
	// The store always returns managedFields: the client strips them.
	store.WithReturnManagedFields()
	if b.returnManagedFields {
		inner.WithReturnManagedFields()
	}
	c.returnManagedFields = b.returnManagedFields
	if b.globalRV {
		if err := withGlobalResourceVersionCounter(inner); err != nil {
			return nil, fmt.Errorf("fakeclient: %w", err)
		}
		_ = withGlobalResourceVersionCounter(store)
	}
	if err := catchPanic(func() { c.store = store.Build() }); err != nil {
		return nil, fmt.Errorf("fakeclient: %w", err)
	}
	c.other = sync.OnceValues(func() (client.WithWatch, error) {
		var cl client.WithWatch
		err := catchPanic(func() { cl = inner.WithScheme(innerScheme(userScheme, c.kinds)).Build() })
		if err != nil {
			return nil, fmt.Errorf("fakeclient: %w", err)
		}
		return cl, nil
	})
	if innerNeeded {
		if _, err := c.other(); err != nil {
			return nil, err
		}
	}
	c.applier = newSubResourceApplier(c)
	var out client.WithWatch = c
	if b.interceptors != nil {
		out = interceptor.NewClient(out, *b.interceptors)
	}
	return out, nil
}

// crdSet returns the CRDs of the client: those of WithCRDSet and those of
// the builder's other CRD options.
func (b *ClientBuilder) crdSet() (*CRDSet, error) {
	own, err := b.BuildCRDSet()
	if err != nil {
		return nil, err
	}
	if len(b.crdSets) == 0 {
		return own, nil
	}
	if len(b.resourceOptions) > 0 {
		return nil, errors.New("fakeclient: WithResourceOptions and WithCRDSet in one builder: give the resource options to the set's builder")
	}
	sets := append([]*CRDSet{own}, b.crdSets...)
	if len(own.kinds) == 0 {
		sets = b.crdSets
		if b.kubernetesVersion != (crdschema.KubernetesVersion{}) && b.crdSets[0] != nil && b.crdSets[0].kubernetesVersion != b.kubernetesVersion {
			return nil, fmt.Errorf("fakeclient: WithKubernetesVersion(%s) and a CRD set built for Kubernetes %s", b.kubernetesVersion, orDefault(b.crdSets[0].kubernetesVersion))
		}
	}
	return mergeCRDSets(sets)
}

func orArg(source string) string {
	if source == "" {
		return "an argument"
	}
	return source
}

func catchPanic(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	f()
	return nil
}
