package bench

// The upstream side: k8s.io/apiextensions-apiserver v0.37.2 driven the way
// the API server drives it, with everything the server builds once per CRD
// built once here (upstreamServer), and each request going through the same
// calls as a real request: the strict JSON serializer with the schema
// coercer and the defaulter inside a versioning codec, the handler's and
// store's preparation, and rest.ValidateCreate / ValidateUpdate with the
// custom resource strategy. The handler keeps the coercer, decoder and
// defaulter in unexported types; the small equivalents below call the same
// exported upstream packages in the same order (the project's oracle, in
// oracle/, does the same to produce the conformance goldens).
//
// Left out, as in the oracle: admission, managedFields, the write to etcd.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	apihelpers "k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"
)

func init() {
	// upstream logs through klog; keep benchmark output clean
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)
}

// The values the server takes from the clock and a random source; both
// sides use the same fixed ones.
var (
	fixedTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	fixedUID  = "00000000-0000-0000-0000-000000000001"
)

// ---------------------------------------------------------------------------
// CRD requests

var internalCRDVersion = schema.GroupVersion{Group: apiextensions.GroupName, Version: runtime.APIVersionInternal}

// upstreamCRDRequest is a CRD create request through the API server: the
// apiextensions scheme's strict JSON decoder (v1 defaulting, conversion to
// the internal type), the create handler's and store's preparation, and
// rest.ValidateCreate with the CRD strategy, which runs
// ValidateCustomResourceDefinition. It returns the decoded CRD and the
// validation errors.
type upstreamCRDRequest struct {
	strategy rest.RESTCreateUpdateStrategy
	decoder  runtime.Decoder
}

func newUpstreamCRDRequest() *upstreamCRDRequest {
	info, ok := runtime.SerializerInfoForMediaType(apiserver.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok {
		panic("no JSON serializer in the apiextensions scheme")
	}
	return &upstreamCRDRequest{
		strategy: customresourcedefinition.NewStrategy(apiserver.Scheme),
		decoder:  apiserver.Codecs.DecoderToVersion(info.StrictSerializer, internalCRDVersion),
	}
}

// decode decodes a CRD request body into the internal type.
func (r *upstreamCRDRequest) decode(body []byte) (*apiextensions.CustomResourceDefinition, error) {
	gvk := apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition")
	obj, _, err := r.decoder.Decode(body, &gvk, &apiextensions.CustomResourceDefinition{})
	if err != nil {
		// unknown fields are warnings with fieldValidation=Warn
		if _, strict := runtime.AsStrictDecodingError(err); !strict || obj == nil {
			return nil, err
		}
	}
	def, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("decoded into %T", obj)
	}
	return def, nil
}

func (r *upstreamCRDRequest) create(body []byte) (*apiextensions.CustomResourceDefinition, field.ErrorList, error) {
	def, err := r.decode(body)
	if err != nil {
		return nil, nil, err
	}
	errs, err := r.validate(def)
	return def, errs, err
}

// validate is the part of create after decoding: the system fields, the
// strategy's preparation and validation of the decoded CRD def, which it
// changes as the API server does (the same changes again when def has been
// through validate before).
func (r *upstreamCRDRequest) validate(def *apiextensions.CustomResourceDefinition) (field.ErrorList, error) {
	ctx := genericapirequest.WithNamespace(context.Background(), "")
	rest.WipeObjectMetaSystemFields(def)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace("", def); err != nil {
		return nil, err
	}
	stampSystemFields(def)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope("", r.strategy.NamespaceScoped()), def); err != nil {
		return nil, err
	}
	r.strategy.PrepareForCreate(ctx, def)
	return rest.ValidateCreate(ctx, def, r.strategy), nil
}

// servedCRD returns the v1 form of an accepted CRD as the custom resource
// handler reads it, with its names accepted.
func servedCRD(def *apiextensions.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinition, error) {
	out := &apiextensionsv1.CustomResourceDefinition{}
	if err := apiserver.Scheme.Convert(def, out, nil); err != nil {
		return nil, err
	}
	out.Status.AcceptedNames = out.Spec.Names
	return out, nil
}

func stampSystemFields(obj metav1.Object) {
	obj.SetCreationTimestamp(metav1.NewTime(fixedTime))
	obj.SetUID(types.UID(fixedUID))
}

// ---------------------------------------------------------------------------
// Serving a version

// upstreamServer is what the custom resource handler prepares for one
// served version of a CRD (getOrCreateServingInfoFor): structural schemas
// of all versions with pruned defaults, schema validators, the strategies
// (which compile the CEL rules), the converter and the request typer.
type upstreamServer struct {
	kind           schema.GroupVersionKind
	storageVersion string
	namespaced     bool
	preserve       bool
	schemas        map[string]*structuralschema.Structural
	typer          runtime.ObjectTyper
	converter      runtime.ObjectConvertor
	strategy       rest.RESTCreateUpdateStrategy
}

func newUpstreamServer(crd *apiextensionsv1.CustomResourceDefinition, version string) (*upstreamServer, error) {
	storageVersion, err := apihelpers.GetCRDStorageVersion(crd)
	if err != nil {
		return nil, err
	}
	schemas := map[string]*structuralschema.Structural{}
	for _, v := range crd.Spec.Versions {
		val, err := apihelpers.GetSchemaForVersion(crd, v.Name)
		if err != nil {
			return nil, err
		}
		if val == nil {
			continue
		}
		internal := &apiextensions.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
			return nil, err
		}
		s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
		if crd.Spec.PreserveUnknownFields {
			schemas[v.Name] = s
			continue
		}
		if err != nil {
			return nil, err
		}
		s = s.DeepCopy()
		if err := structuraldefaulting.PruneDefaults(s); err != nil {
			return nil, err
		}
		schemas[v.Name] = s
	}

	factory, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		return nil, err
	}
	converter, _, err := factory.NewConverter(crd)
	if err != nil {
		return nil, err
	}

	var served *apiextensionsv1.CustomResourceDefinitionVersion
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == version && crd.Spec.Versions[i].Served {
			served = &crd.Spec.Versions[i]
		}
	}
	if served == nil {
		return nil, fmt.Errorf("version %q is not served", version)
	}
	kind := schema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Status.AcceptedNames.Kind}

	params := runtime.NewScheme()
	params.AddUnversionedTypes(kind.GroupVersion(), &metav1.ListOptions{}, &metav1.GetOptions{}, &metav1.DeleteOptions{})
	typer := apiserver.UnstructuredObjectTyper{Delegate: params, UnstructuredTyper: crdserverscheme.NewUnstructuredObjectTyper()}

	val, err := apihelpers.GetSchemaForVersion(crd, version)
	if err != nil {
		return nil, err
	}
	var internalValidation *apiextensions.CustomResourceValidation
	var props *apiextensions.JSONSchemaProps
	if val != nil {
		internalValidation = &apiextensions.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internalValidation, nil); err != nil {
			return nil, err
		}
		props = internalValidation.OpenAPIV3Schema
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(props)
	if err != nil {
		return nil, err
	}

	sub, err := apihelpers.GetSubresourcesForVersion(crd, version)
	if err != nil {
		return nil, err
	}
	var status *apiextensions.CustomResourceSubresourceStatus
	var statusValidator apiservervalidation.SchemaValidator
	if sub != nil && sub.Status != nil {
		status = &apiextensions.CustomResourceSubresourceStatus{}
		if props != nil {
			if st, ok := props.Properties["status"]; ok {
				if statusValidator, _, err = apiservervalidation.NewSchemaValidator(&st); err != nil {
					return nil, err
				}
			}
		}
	}
	var scale *apiextensions.CustomResourceSubresourceScale
	if sub != nil && sub.Scale != nil {
		scale = &apiextensions.CustomResourceSubresourceScale{}
		if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(sub.Scale, scale, nil); err != nil {
			return nil, err
		}
	}

	strategy := customresource.NewStrategy(typer, crd.Spec.Scope == apiextensionsv1.NamespaceScoped, kind,
		validator, statusValidator, schemas[version], status, scale, served.SelectableFields)
	return &upstreamServer{
		kind:           kind,
		storageVersion: storageVersion,
		namespaced:     crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		preserve:       crd.Spec.PreserveUnknownFields,
		schemas:        schemas,
		typer:          typer,
		converter:      converter,
		strategy:       strategy,
	}, nil
}

// ---------------------------------------------------------------------------
// Decoding

// schemaCoercer does to a custom resource what the handler's coercer does
// after JSON decoding: it decodes and cleans ObjectMeta, prunes unknown
// fields (collecting their paths), drops nulls the schema does not allow,
// and coerces the metadata of embedded resources.
type schemaCoercer struct {
	schemas          map[string]*structuralschema.Structural
	gk               schema.GroupKind
	preserve         bool
	dropBadMetadata  bool
	repairGeneration bool
	trackUnknown     bool
}

func (c schemaCoercer) coerce(u *unstructured.Unstructured) ([]string, error) {
	content := u.UnstructuredContent()
	kind, hasKind, err := unstructured.NestedString(content, "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, hasAPIVersion, err := unstructured.NestedString(content, "apiVersion")
	if err != nil {
		return nil, err
	}
	meta, hasMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{
		DropMalformedFields:     c.dropBadMetadata,
		ReturnUnknownFieldPaths: c.trackUnknown,
	})
	if err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	if gv.Group == c.gk.Group && kind == c.gk.Kind {
		s := c.schemas[gv.Version]
		if !c.preserve {
			unknown = append(unknown, structuralpruning.PruneWithOptions(u.Object, s, true,
				structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: c.trackUnknown})...)
			structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
		}
		err, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, s, false, schemaobjectmeta.CoerceOptions{
			DropInvalidFields:       c.dropBadMetadata,
			ReturnUnknownFieldPaths: c.trackUnknown,
		})
		if err != nil {
			return nil, err
		}
		unknown = append(unknown, paths...)
		if c.repairGeneration && meta.Generation == 0 {
			meta.Generation = 1
		}
	}
	if hasKind {
		u.SetKind(kind)
	}
	if hasAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if hasMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, meta); err != nil {
			return nil, err
		}
	}
	return unknown, nil
}

// coercingDecoder runs a decoder, then the coercer; with tracking on,
// unknown fields come back as a strict decoding error, as upstream does.
type coercingDecoder struct {
	delegate runtime.Decoder
	coercer  schemaCoercer
}

func (d coercingDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	var strictErrs []error
	obj, gvk, err := d.delegate.Decode(data, defaults, into)
	if err != nil {
		se, ok := runtime.AsStrictDecodingError(err)
		if !ok || obj == nil {
			return nil, gvk, err
		}
		strictErrs = se.Errors()
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		unknown, err := d.coercer.coerce(u)
		if err != nil {
			return nil, gvk, err
		}
		for _, p := range unknown {
			strictErrs = append(strictErrs, fmt.Errorf(`unknown field "%s"`, p))
		}
	}
	if d.coercer.trackUnknown && len(strictErrs) > 0 {
		return obj, gvk, runtime.NewStrictDecodingError(strictErrs)
	}
	return obj, gvk, nil
}

// coercingConverter runs a converter, then the coercer on its result.
type coercingConverter struct {
	delegate runtime.ObjectConvertor
	coercer  schemaCoercer
}

func (c coercingConverter) Convert(in, out, context interface{}) error {
	if err := c.delegate.Convert(in, out, context); err != nil {
		return err
	}
	if u, ok := out.(*unstructured.Unstructured); ok {
		_, err := c.coercer.coerce(u)
		return err
	}
	return nil
}

func (c coercingConverter) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	out, err := c.delegate.ConvertToVersion(in, gv)
	if err != nil {
		return nil, err
	}
	if u, ok := out.(*unstructured.Unstructured); ok {
		if _, err := c.coercer.coerce(u); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c coercingConverter) ConvertFieldLabel(gvk schema.GroupVersionKind, label, value string) (string, string, error) {
	return c.delegate.ConvertFieldLabel(gvk, label, value)
}

// schemaDefaulter applies the structural defaults of the object's version
// to custom resources of the CRD, and the scheme's defaults to anything
// else.
type schemaDefaulter struct {
	delegate runtime.ObjectDefaulter
	schemas  map[string]*structuralschema.Structural
	gk       schema.GroupKind
}

func (d schemaDefaulter) Default(in runtime.Object) {
	u, ok := in.(runtime.Unstructured)
	gvk := in.GetObjectKind().GroupVersionKind()
	if !ok || gvk.GroupKind() != d.gk {
		d.delegate.Default(in)
		return
	}
	structuraldefaulting.Default(u.UnstructuredContent(), d.schemas[gvk.Version])
}

// unstructuredCreator makes empty custom resources of a kind.
type unstructuredCreator struct{}

func (unstructuredCreator) New(kind schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kind)
	return u, nil
}

// decodeRequest decodes a request body as the request scope does with
// fieldValidation=Warn: strict JSON serializer, coercer tracking unknown
// fields, defaulter, conversion to the request version.
func (s *upstreamServer) decodeRequest(body []byte) (*unstructured.Unstructured, error) {
	strict := json.NewSerializerWithOptions(json.DefaultMetaFactory, unstructuredCreator{}, s.typer, json.SerializerOptions{Strict: true})
	dec := coercingDecoder{delegate: strict, coercer: schemaCoercer{
		schemas: s.schemas, gk: s.kind.GroupKind(), preserve: s.preserve, trackUnknown: true,
	}}
	codec := versioning.NewCodec(nil, dec, runtime.UnsafeObjectConvertor(apiserver.Scheme), apiserver.Scheme, apiserver.Scheme,
		schemaDefaulter{delegate: apiserver.Scheme, schemas: s.schemas, gk: s.kind.GroupKind()},
		nil, s.kind.GroupVersion(), "unstructuredNegotiatedSerializer")
	into, _ := unstructuredCreator{}.New(s.kind)
	gvk := s.kind
	obj, got, err := codec.Decode(body, &gvk, into)
	if err != nil {
		if _, strict := runtime.AsStrictDecodingError(err); !strict || obj == nil {
			return nil, err
		}
	}
	if got.GroupVersion() != s.kind.GroupVersion() {
		return nil, fmt.Errorf("the API version in the data (%s) does not match the expected API version (%s)", got.GroupVersion(), s.kind.GroupVersion())
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("decoded into %T", obj)
	}
	return u, nil
}

// decodeStored decodes an object as the storage codec reads it from etcd:
// coercer dropping malformed metadata and repairing the generation,
// defaulting with the storage version's schema, conversion to the request
// version and the coercer again.
func (s *upstreamServer) decodeStored(data []byte) (*unstructured.Unstructured, error) {
	gk := s.kind.GroupKind()
	dec := coercingDecoder{delegate: unstructured.UnstructuredJSONScheme, coercer: schemaCoercer{
		schemas: s.schemas, gk: gk, preserve: s.preserve, dropBadMetadata: true, repairGeneration: true,
	}}
	conv := coercingConverter{delegate: s.converter, coercer: schemaCoercer{schemas: s.schemas, gk: gk, preserve: s.preserve}}
	codec := versioning.NewCodec(unstructured.UnstructuredJSONScheme, dec, conv, unstructuredCreator{}, crdserverscheme.NewUnstructuredObjectTyper(),
		schemaDefaulter{delegate: apiserver.Scheme, schemas: s.schemas, gk: gk},
		schema.GroupVersion{Group: s.kind.Group, Version: s.storageVersion}, s.kind.GroupVersion(), "crdRESTOptions")
	into, _ := unstructuredCreator{}.New(s.kind)
	obj, _, err := codec.Decode(data, nil, into.(*unstructured.Unstructured).NewEmptyInstance())
	if err != nil {
		return nil, err
	}
	return obj.(*unstructured.Unstructured), nil
}

// ---------------------------------------------------------------------------
// Requests

func (s *upstreamServer) namespaceOf(objs ...*unstructured.Unstructured) string {
	if !s.namespaced {
		return ""
	}
	for _, o := range objs {
		if ns := o.GetNamespace(); ns != "" {
			return ns
		}
	}
	return metav1.NamespaceDefault
}

// create is a create request from its body up to and including
// validation: decoding, the create handler's and the store's preparation,
// rest.BeforeCreate and rest.ValidateCreate.
func (s *upstreamServer) create(body []byte) (*unstructured.Unstructured, field.ErrorList, error) {
	obj, err := s.decodeRequest(body)
	if err != nil {
		return nil, nil, err
	}
	ns := s.namespaceOf(obj)
	ctx := genericapirequest.WithNamespace(context.Background(), ns)
	rest.WipeObjectMetaSystemFields(obj)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(ns, obj); err != nil {
		return nil, nil, err
	}
	stampSystemFields(obj)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(ns, s.strategy.NamespaceScoped()), obj); err != nil {
		return nil, nil, err
	}
	s.strategy.PrepareForCreate(ctx, obj)
	return obj, rest.ValidateCreate(ctx, obj, s.strategy), nil
}

// update is an update (PUT) of the main resource from its body, with old
// as the watch cache hands it out (a copy of the decoded stored object):
// decoding, the optimistic concurrency check, rest.BeforeUpdate and
// rest.ValidateUpdate, which ratchets schema and CEL errors of unchanged
// values.
func (s *upstreamServer) update(body []byte, old *unstructured.Unstructured) (*unstructured.Unstructured, field.ErrorList, error) {
	obj, err := s.decodeRequest(body)
	if err != nil {
		return nil, nil, err
	}
	name := obj.GetName()
	ns := s.namespaceOf(obj, old)
	ctx := genericapirequest.WithNamespace(context.Background(), ns)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(ns, obj); err != nil {
		return nil, nil, err
	}
	if old.GetResourceVersion() == "" || obj.GetResourceVersion() != old.GetResourceVersion() {
		return nil, nil, errors.New("resourceVersion conflict")
	}
	if old.GetName() != name {
		return nil, nil, errors.New("name mismatch")
	}
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(ns, s.strategy.NamespaceScoped()), obj); err != nil {
		return nil, nil, err
	}
	obj.SetGeneration(old.GetGeneration())
	s.strategy.PrepareForUpdate(ctx, obj, old)
	if len(obj.GetUID()) == 0 {
		obj.SetUID(old.GetUID())
	}
	if t := old.GetCreationTimestamp(); !t.IsZero() {
		obj.SetCreationTimestamp(t)
	}
	return obj, rest.ValidateUpdate(ctx, obj, old, s.strategy), nil
}

// ---------------------------------------------------------------------------
// CEL and OpenAPI

// upstreamRules compiles the CEL rules of a version's schema as the
// strategy does.
func upstreamRules(crd *apiextensionsv1.CustomResourceDefinition, version string) (*cel.Validator, *structuralschema.Structural, error) {
	val, err := apihelpers.GetSchemaForVersion(crd, version)
	if err != nil {
		return nil, nil, err
	}
	internal := &apiextensions.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
		return nil, nil, err
	}
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, nil, err
	}
	return cel.NewValidator(s, true, celconfig.PerCallLimit), s, nil
}

func upstreamValidateRules(v *cel.Validator, s *structuralschema.Structural, obj map[string]any) field.ErrorList {
	errs, _ := v.Validate(context.Background(), nil, s, obj, nil, celconfig.RuntimeCELCostBudget)
	return errs
}

// upstreamOpenAPIV3 is what the OpenAPI v3 controller publishes for a lone
// CRD version at /openapi/v3/apis/<group>/<version>, marshaled.
func upstreamOpenAPIV3(crd *apiextensionsv1.CustomResourceDefinition, version string) ([]byte, error) {
	doc, err := builder.BuildOpenAPIV3(crd, version, builder.Options{V2: false, IncludeSelectableFields: true})
	if err != nil {
		return nil, err
	}
	if doc, err = builder.MergeSpecsV3(doc); err != nil {
		return nil, err
	}
	return doc.MarshalJSON()
}
