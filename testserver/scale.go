package testserver

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/kubeapi"
	"github.com/crdschema/crdschema/printer"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apiserver/pkg/endpoints/handlers"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The scale subresource of a custom resource is served as
// apiextensions-apiserver serves it: the request handlers (get, update,
// patch) over a REST of autoscaling/v1 Scales (scaleREST, its ScaleREST),
// with a field manager of its own for the Scale whose entries are kept in
// the object's managedFields with subresource "scale", the spec replicas
// path standing for spec.replicas (managedfields.ScaleHandler). The Scale is
// read and written through crdschema's GetScale and UpdateScale, so a write
// goes through the main resource's update pipeline.

// scaleScheme has the types a scale scope encodes and decodes.
var scaleScheme = runtime.NewScheme()

func init() {
	metav1.AddToGroupVersion(scaleScheme, schema.GroupVersion{Version: "v1"})
	metav1.AddMetaToScheme(scaleScheme)
	if err := autoscalingv1.AddToScheme(scaleScheme); err != nil {
		panic(err)
	}
}

var scaleGVK = autoscalingv1.SchemeGroupVersion.WithKind("Scale")

// scaleServing is the serving of a version's scale subresource.
type scaleServing struct {
	scope *handlers.RequestScope
	rest  *scaleREST
}

// serveScale returns the serving of the version's scale subresource.
func (v *servedVersion) serveScale() (*scaleServing, error) {
	main, err := v.serve(false)
	if err != nil {
		return nil, err
	}
	v.scaleOnce.Do(func() { v.scaleServing, v.scaleErr = v.buildScale(main) })
	return v.scaleServing, v.scaleErr
}

func (v *servedVersion) buildScale(main *serving) (*scaleServing, error) {
	k := v.kind
	valid := map[schema.GroupVersion]bool{}
	mapping := managedfields.ResourcePathMappings{}
	for _, name := range k.order {
		gv := schema.GroupVersion{Group: k.gr.Group, Version: name}
		valid[gv] = true
		var path fieldpath.Path
		if sc := k.versions[name].scale; sc != nil {
			for _, f := range strings.Split(strings.TrimPrefix(sc.SpecReplicasPath, "."), ".") {
				path = append(path, fieldpath.PathElement{FieldName: &f})
			}
		}
		mapping[gv.String()] = path
	}
	conv := scaleConverter{ObjectConvertor: main.scope.Convertor, valid: valid}
	// As upstream: a copy of the main scope with the Scale's serializer,
	// kind, table and field manager; its creater and typer stay those of
	// custom resources, its converter is theirs with typed Scales.
	scope := *main.scope
	scope.Subresource = "scale"
	scope.Serializer = serializer.NewCodecFactory(scaleScheme)
	scope.StandardSerializers = nil
	scope.Kind = scaleGVK
	scope.Convertor = conv
	scope.UnsafeConvertor = conv
	scope.TableConvertor = scaleTable{tableConvertor{p: printer.NewScale(v.scale, printer.WithClock(k.server.now))}}
	tc, err := kubeapi.TypeConverter(k.def, k.order)
	if err != nil {
		return nil, err
	}
	fm, err := managedfields.NewDefaultCRDFieldManager(tc, conv, noDefaults{}, scope.Creater, scaleGVK, scope.HubGroupVersion, "scale", nil)
	if err != nil {
		return nil, err
	}
	scope.FieldManager = fm
	return &scaleServing{scope: &scope, rest: &scaleREST{main: main.rest, version: v, parentGV: v.gvk.GroupVersion(), mapping: mapping}}, nil
}

// scaleConverter is apiextensions-apiserver's converter of custom
// resources as a scale scope uses it: a typed Scale converts through the
// scale scheme, anything else must be an object of one of the kind's
// versions. An apply patch of the Scale thus ends, as in the API server,
// in the field manager's failure to convert the applied Scale to the
// custom resource's version.
type scaleConverter struct {
	runtime.ObjectConvertor
	valid map[schema.GroupVersion]bool
}

func (c scaleConverter) ConvertToVersion(in runtime.Object, target runtime.GroupVersioner) (runtime.Object, error) {
	in = in.DeepCopyObject()
	from := in.GetObjectKind().GroupVersionKind()
	to, ok := target.KindForGroupVersionKinds([]schema.GroupVersionKind{from})
	if !ok {
		return nil, fmt.Errorf("%v is unstructured and is not suitable for converting to %q", from.String(), target)
	}
	if _, isScale := in.(*autoscalingv1.Scale); isScale {
		return scaleScheme.ConvertToVersion(in, target)
	}
	if !c.valid[to.GroupVersion()] {
		return nil, fmt.Errorf("request to convert CR to an invalid group/version: %s", to.GroupVersion().String())
	}
	if !c.valid[from.GroupVersion()] {
		return nil, fmt.Errorf("request to convert CR from an invalid group/version: %s", from.GroupVersion().String())
	}
	return c.ObjectConvertor.ConvertToVersion(in, target)
}

// scaleREST is apiextensions-apiserver's ScaleREST over a version's
// pipelineREST: a Patcher of autoscaling/v1 Scales.
type scaleREST struct {
	main     *pipelineREST
	version  *servedVersion
	parentGV schema.GroupVersion
	mapping  managedfields.ResourcePathMappings
}

var (
	_ rest.Patcher                  = (*scaleREST)(nil)
	_ rest.GroupVersionKindProvider = (*scaleREST)(nil)
)

func (r *scaleREST) New() runtime.Object { return &autoscalingv1.Scale{} }
func (r *scaleREST) Destroy()            {}
func (r *scaleREST) GroupVersionKind(schema.GroupVersion) schema.GroupVersionKind {
	return scaleGVK
}

func (r *scaleREST) Get(ctx context.Context, name string, options *metav1.GetOptions) (runtime.Object, error) {
	obj, err := r.main.Get(ctx, name, options)
	if err != nil {
		return nil, err
	}
	return r.scaleOf(obj)
}

// scaleOf returns the Scale of a stored object, or the API server's error.
func (r *scaleREST) scaleOf(obj runtime.Object) (*autoscalingv1.Scale, error) {
	u, err := asUnstructured(obj)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	k := r.version.kind
	sc, err := getScale(r.version.res, u.Object)
	if err != nil {
		return nil, kubeapi.RequestError(err, k.gr, k.gk(), u.GetName())
	}
	return toAutoscaling(sc), nil
}

func (r *scaleREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc, updateValidation rest.ValidateObjectUpdateFunc, forceAllowCreate bool, options *metav1.UpdateOptions) (runtime.Object, bool, error) {
	info := &scaleUpdate{r: r, req: objInfo}
	obj, _, err := r.main.Store.Update(ctx, name, info, rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, options)
	if err != nil {
		return nil, false, err
	}
	addWarnings(ctx, info.warnings)
	sc, err := r.scaleOf(obj)
	if err != nil {
		return nil, false, err
	}
	return sc, false, nil
}

// scaleUpdate is upstream's scaleUpdatedObjectInfo: the handlers' update
// of the Scale (a PUT, a patch, the field manager's entries) applied to the
// Scale of the stored object, written back into it through crdschema's
// UpdateScale.
type scaleUpdate struct {
	r        *scaleREST
	req      rest.UpdatedObjectInfo
	warnings []string
}

func (i *scaleUpdate) Preconditions() *metav1.Preconditions { return i.req.Preconditions() }

func (i *scaleUpdate) UpdatedObject(ctx context.Context, oldObj runtime.Object) (runtime.Object, error) {
	old, err := asUnstructured(oldObj)
	if err != nil {
		return nil, err
	}
	if old.Object == nil || old.GetResourceVersion() == "" {
		return oldObj, nil // the registry store answers 404
	}
	v, k := i.r.version, i.r.version.kind
	fields := managedfields.NewScaleHandler(old.GetManagedFields(), i.r.parentGV, i.r.mapping)
	oldScale, err := i.currentScale(old)
	if err != nil {
		return nil, err
	}
	if oldScale.ManagedFields, err = fields.ToSubresource(); err != nil {
		return nil, err
	}
	obj, err := i.req.UpdatedObject(ctx, oldScale)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, apierrors.NewBadRequest("nil update passed to Scale")
	}
	scale, ok := obj.(*autoscalingv1.Scale)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("wrong object passed to Scale update: %v", obj))
	}
	out, err := runRequest(k.gr, k.gk(), old.GetName(), "", updateScale(ctx, v.res, fromAutoscaling(scale), old.Object))
	if err != nil {
		return nil, err
	}
	entries, err := fields.ToParent(scale.ManagedFields)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: out.object}
	u.SetManagedFields(entries)
	i.warnings = out.warnings
	return u, nil
}

// currentScale is the Scale of the stored object, with the smallest int32
// as its spec replicas where the object has none, as upstream marks them.
func (i *scaleUpdate) currentScale(old *unstructured.Unstructured) (*autoscalingv1.Scale, error) {
	v, k := i.r.version, i.r.version.kind
	obj := old.Object
	path := strings.Split(strings.TrimPrefix(v.scale.SpecReplicasPath, "."), ".")
	_, found, err := unstructured.NestedFieldNoCopy(obj, path...)
	if err != nil {
		return nil, kubeapi.RequestError(err, k.gr, k.gk(), old.GetName())
	}
	if !found {
		obj = deepCopyMap(obj)
		if err := unstructured.SetNestedField(obj, int64(0), path...); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
	}
	sc, err := getScale(v.res, obj)
	if err != nil {
		return nil, kubeapi.RequestError(err, k.gr, k.gk(), old.GetName())
	}
	out := toAutoscaling(sc)
	if !found {
		out.Spec.Replicas = math.MinInt32
	}
	return out, nil
}

// toAutoscaling and fromAutoscaling convert between crdschema's Scale and
// the API's, which have the same fields.
func toAutoscaling(sc *crd.Scale) *autoscalingv1.Scale {
	return &autoscalingv1.Scale{
		TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
		ObjectMeta: metav1.ObjectMeta{
			Name: sc.Metadata.Name, Namespace: sc.Metadata.Namespace, UID: types.UID(sc.Metadata.UID),
			ResourceVersion: sc.Metadata.ResourceVersion, CreationTimestamp: metav1.NewTime(sc.Metadata.CreationTimestamp.Time),
		},
		Spec:   autoscalingv1.ScaleSpec{Replicas: sc.Spec.Replicas},
		Status: autoscalingv1.ScaleStatus{Replicas: sc.Status.Replicas, Selector: sc.Status.Selector},
	}
}

func fromAutoscaling(sc *autoscalingv1.Scale) *crd.Scale {
	out := &crd.Scale{
		Spec:   crd.ScaleSpec{Replicas: sc.Spec.Replicas},
		Status: crd.ScaleStatus{Replicas: sc.Status.Replicas, Selector: sc.Status.Selector},
	}
	out.APIVersion, out.Kind = sc.APIVersion, sc.Kind
	out.Metadata.Name, out.Metadata.Namespace = sc.Name, sc.Namespace
	out.Metadata.UID, out.Metadata.ResourceVersion = string(sc.UID), sc.ResourceVersion
	return out
}

// scaleTable renders Scales with the API server's scale columns (Desired,
// Available, Age).
type scaleTable struct{ tableConvertor }

func (t scaleTable) ConvertToTable(ctx context.Context, obj runtime.Object, opts runtime.Object) (*metav1.Table, error) {
	sc, ok := obj.(*autoscalingv1.Scale)
	if !ok {
		return nil, fmt.Errorf("cannot render %T as a table", obj)
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(sc)
	if err != nil {
		return nil, err
	}
	return t.tableConvertor.ConvertToTable(ctx, &unstructured.Unstructured{Object: m}, opts)
}

// serveScale serves a request of the scale subresource with the handlers
// apiextensions-apiserver uses for it.
func (s *Server) serveScale(w http.ResponseWriter, req *http.Request, info *request.RequestInfo, v *servedVersion) {
	gv := v.gvk.GroupVersion()
	sv, err := v.serveScale()
	if err != nil {
		responsewriters.ErrorNegotiated(apierrors.NewInternalError(err), metaCodecs, gv, w, req)
		return
	}
	var h http.HandlerFunc
	switch info.Verb {
	case "get":
		h = handlers.GetResource(sv.rest, sv.scope)
	case "update":
		h = handlers.UpdateResource(sv.rest, sv.scope, nil)
	case "patch":
		h = handlers.PatchResource(sv.rest, sv.scope, nil, patchTypes)
	default:
		responsewriters.ErrorNegotiated(apierrors.NewMethodNotSupported(v.kind.gr, info.Verb), metaCodecs, gv, w, req)
		return
	}
	h(w, req)
}
