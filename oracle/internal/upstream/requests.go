package upstream

// Create and update requests against a custom resource. This mirrors the
// generic handlers (k8s.io/apiserver/pkg/endpoints/handlers: create.go,
// update.go), the generic store (registry/generic/registry/store.go) and
// rest.BeforeCreate / rest.BeforeUpdate, with the custom resource strategies
// (pkg/registry/customresource) doing the real work. Left out, because they
// are generic API server machinery and not schema handling: admission,
// managedFields (server-side apply bookkeeping), owner reference
// de-duplication, and the round trip through etcd after validation.
// Optimistic concurrency is checked as the store does: an update must carry
// the resourceVersion of the stored object, and a valid create must carry
// none (etcd3's Create refuses it).

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
)

// decodeRequest decodes a request body as the request scope's serializer does
// with fieldValidation=Warn (kubectl's --validate=warn): the strict JSON
// serializer, the schema coercer tracking unknown fields, the defaulter, and
// the (no-op) conversion to the request version.
func (si *servingInfo) decodeRequest(body []byte) (*unstructured.Unstructured, *schema.GroupVersionKind, []string, error) {
	strict := json.NewSerializerWithOptions(json.DefaultMetaFactory, creator{}, si.typer, json.SerializerOptions{Strict: true})
	var unknown []string
	d := coercingDecoder{
		delegate: strict,
		validator: coercer{
			structuralSchemas:       si.structuralSchemas,
			structuralSchemaGK:      si.kind.GroupKind(),
			preserveUnknownFields:   si.preserveUnknownFields,
			returnUnknownFieldPaths: strict.IsStrict(),
		},
		onUnknown: func(paths []string) { unknown = append(unknown, paths...) },
	}
	codec := versioning.NewCodec(nil, d, runtime.UnsafeObjectConvertor(apiserver.Scheme), apiserver.Scheme, apiserver.Scheme,
		defaulter{delegate: apiserver.Scheme, structuralSchemas: si.structuralSchemas, structuralSchemaGK: si.kind.GroupKind()},
		nil, si.kind.GroupVersion(), "unstructuredNegotiatedSerializer")

	defaultGVK := si.kind
	original, _ := creator{}.New(si.kind) // the store's New()
	obj, gvk, err := codec.Decode(body, &defaultGVK, original)
	if err != nil {
		// with fieldValidation=Warn, strict errors are warnings
		if _, isStrict := runtime.AsStrictDecodingError(err); !isStrict || obj == nil {
			return nil, gvk, nil, err
		}
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, gvk, nil, fmt.Errorf("decoded into %T", obj)
	}
	return u, gvk, unknown, nil
}

// decodeStored decodes an object as stored in etcd, as the storage codec of
// the custom resource does (crdConversionRESTOptionsGetter): the unstructured
// JSON scheme, the coercer dropping invalid metadata and repairing a missing
// generation, defaulting with the schema of the stored version, conversion to
// the request version followed by the coercer again.
func (si *servingInfo) decodeStored(data []byte) (*unstructured.Unstructured, error) {
	d := coercingDecoder{
		delegate: unstructured.UnstructuredJSONScheme,
		validator: coercer{
			dropInvalidMetadata:   true,
			repairGeneration:      true,
			structuralSchemas:     si.structuralSchemas,
			structuralSchemaGK:    si.kind.GroupKind(),
			preserveUnknownFields: si.preserveUnknownFields,
		},
	}
	c := coercingConverter{
		delegate: si.converter,
		validator: coercer{
			structuralSchemas:     si.structuralSchemas,
			structuralSchemaGK:    si.kind.GroupKind(),
			preserveUnknownFields: si.preserveUnknownFields,
		},
	}
	codec := versioning.NewCodec(unstructured.UnstructuredJSONScheme, d, c, creator{}, crdserverscheme.NewUnstructuredObjectTyper(),
		defaulter{delegate: apiserver.Scheme, structuralSchemas: si.structuralSchemas, structuralSchemaGK: si.kind.GroupKind()},
		schema.GroupVersion{Group: si.kind.Group, Version: si.storageVersion}, si.kind.GroupVersion(), "crdRESTOptions")

	// etcd3's getState decodes into NewEmptyInstance() of the store's New()
	into, _ := creator{}.New(si.kind)
	obj, _, err := codec.Decode(data, nil, into.(*unstructured.Unstructured).NewEmptyInstance())
	if err != nil {
		return nil, err
	}
	return obj.(*unstructured.Unstructured), nil
}

// checkConvertible refuses a stored object that only a conversion webhook
// could convert to the request version: the oracle cannot call webhooks.
func (si *servingInfo) checkConvertible(data []byte) error {
	if si.crd.Spec.Conversion == nil || si.crd.Spec.Conversion.Strategy != apiextensionsv1.WebhookConverter {
		return nil
	}
	var tm metav1.TypeMeta
	if err := stdjson.Unmarshal(data, &tm); err != nil {
		return err
	}
	if tm.APIVersion != si.kind.GroupVersion().String() {
		return fmt.Errorf("stored as %s, which needs the conversion webhook to become %s; webhooks cannot be emulated", tm.APIVersion, si.kind.GroupVersion())
	}
	return nil
}

// runRequest handles one request of a case.
func (si *servingInfo) runRequest(c *Case, i int, r Request) (*RequestResult, error) {
	what := fmt.Sprintf("requests[%d]", i)
	if r.Subresource == "status" && si.statusStrategy == nil {
		return nil, &CaseError{path: c.Path, msg: what + ": the version has no status subresource"}
	}

	obj, gvk, unknown, err := si.decodeRequest(r.Object)
	if err != nil {
		return &RequestResult{RequestError: si.transformDecodeError(err, gvk, r.Object).Error(), Errors: []FieldError{}}, nil
	}
	// handler: the API version must be the one of the endpoint
	if gvk.GroupVersion() != si.kind.GroupVersion() {
		return &RequestResult{RequestError: fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", gvk.GroupVersion(), si.kind.GroupVersion()), Errors: []FieldError{}}, nil
	}
	res := &RequestResult{UnknownFields: sortedPaths(unknown)}

	var errs field.ErrorList
	if r.Operation == "create" {
		errs, err = si.create(obj)
	} else {
		if err := si.checkConvertible(r.OldObject); err != nil {
			return nil, &CaseError{path: c.Path, msg: what + ".oldObject: " + err.Error()}
		}
		var old *unstructured.Unstructured
		old, err = si.decodeStored(r.OldObject)
		if err != nil {
			return nil, &CaseError{path: c.Path, msg: what + ".oldObject: cannot be decoded as a stored object: " + err.Error()}
		}
		errs, err = si.update(c, what, r.Subresource, obj, old)
	}
	if err != nil {
		if ce, ok := err.(*CaseError); ok {
			return nil, ce
		}
		return &RequestResult{RequestError: err.Error(), Errors: []FieldError{}}, nil
	}

	if r.Operation == "create" && len(errs) == 0 {
		// Storage (etcd3's Create) refuses a valid new object that carries
		// a resourceVersion; the handler reports the plain error as an
		// internal one.
		versioner := storage.APIObjectVersioner{}
		if rv, err := versioner.ObjectResourceVersion(obj); err == nil && rv != 0 {
			return &RequestResult{RequestError: storage.ErrResourceVersionSetOnCreate.Error(), Errors: []FieldError{}}, nil
		}
		// one that does not parse is cleared, as storage prepares every
		// new object
		if err := versioner.PrepareObjectForStorage(obj); err != nil {
			return nil, err
		}
	}
	res.Object = obj.Object
	res.Errors = toFieldErrors(errs)
	res.Table, err = si.tableFor(obj)
	if err != nil {
		return nil, fmt.Errorf("%s: table: %w", what, err)
	}
	return res, nil
}

// transformDecodeError is the handlers' transformDecodeError: how a body
// that cannot be decoded is reported to the client.
func (si *servingInfo) transformDecodeError(baseErr error, gvk *schema.GroupVersionKind, body []byte) error {
	into, _ := creator{}.New(si.kind)
	objGVKs, _, err := si.typer.ObjectKinds(into)
	if err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	objGVK := objGVKs[0]
	if gvk != nil && len(gvk.Kind) > 0 {
		return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, objGVK.Kind, baseErr))
	}
	summary := string(body)
	if len(body) > 30 {
		summary = string(body[:30]) + " ..."
	}
	return apierrors.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", objGVK.Kind, baseErr, summary))
}

// requestNamespace is the namespace in the URL of the request: kubectl uses
// the object's namespace, or "default", for namespaced resources.
func (si *servingInfo) requestNamespace(objs ...metav1.Object) string {
	if !si.namespaced {
		return ""
	}
	for _, o := range objs {
		if ns := o.GetNamespace(); ns != "" {
			return ns
		}
	}
	return metav1.NamespaceDefault
}

// create: createHandler, Store.create and rest.BeforeCreate up to and
// including validation.
func (si *servingInfo) create(obj *unstructured.Unstructured) (field.ErrorList, error) {
	namespace := si.requestNamespace(obj)
	ctx := genericapirequest.WithNamespace(context.Background(), namespace)

	// createHandler
	rest.WipeObjectMetaSystemFields(obj)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(namespace, obj); err != nil {
		return nil, err
	}
	// Store.create
	fillSystemFields(obj)
	if len(obj.GetGenerateName()) > 0 && len(obj.GetName()) == 0 {
		obj.SetName(generateName(obj.GetGenerateName()))
	}
	// rest.BeforeCreate
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(namespace, si.strategy.NamespaceScoped()), obj); err != nil {
		return nil, err
	}
	si.strategy.PrepareForCreate(ctx, obj)
	return validateCreate(ctx, obj, si.strategy), nil
}

// update: updateHandler, Store.Update and rest.BeforeUpdate up to and
// including validation, for the main resource or the status subresource.
func (si *servingInfo) update(c *Case, what, subresource string, obj, old *unstructured.Unstructured) (field.ErrorList, error) {
	var strategy rest.RESTUpdateStrategy = si.strategy
	if subresource == "status" {
		strategy = si.statusStrategy
	}

	// the URL names the object; the stored object must be found under it
	name := obj.GetName()
	if name == "" {
		name = old.GetName()
	}
	namespace := si.requestNamespace(obj, old)
	if old.GetName() != name || (si.namespaced && old.GetNamespace() != namespace) {
		return nil, &CaseError{path: c.Path, msg: fmt.Sprintf("%s: oldObject must be stored under the name and namespace of object (%s/%s)", what, namespace, name)}
	}
	ctx := genericapirequest.WithNamespace(context.Background(), namespace)

	// updateHandler
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(namespace, obj); err != nil {
		return nil, err
	}
	if obj.GetName() != name {
		return nil, fmt.Errorf("the name of the object (%s) does not match the name on the URL (%s)", obj.GetName(), name)
	}

	// Store.Update: optimistic concurrency. The stored object carries the
	// resourceVersion etcd gives it on read: the one of the case, or "1".
	versioner := storage.APIObjectVersioner{}
	if old.GetResourceVersion() == "" {
		old.SetResourceVersion("1")
	}
	existingResourceVersion, err := versioner.ObjectResourceVersion(old)
	if err != nil {
		return nil, &CaseError{path: c.Path, msg: what + ".oldObject: " + err.Error()}
	}
	newResourceVersion, err := versioner.ObjectResourceVersion(obj)
	if err != nil {
		return nil, err
	}
	plural := si.crd.Status.AcceptedNames.Plural
	if newResourceVersion == 0 {
		qualifiedKind := schema.GroupKind{Group: si.kind.Group, Kind: plural}
		fieldErrList := field.ErrorList{field.Invalid(field.NewPath("metadata").Child("resourceVersion"), newResourceVersion, "must be specified for an update")}
		return nil, apierrors.NewInvalid(qualifiedKind, name, fieldErrList)
	}
	if newResourceVersion != existingResourceVersion {
		return nil, apierrors.NewConflict(schema.GroupResource{Group: si.kind.Group, Resource: plural}, name, fmt.Errorf(genericregistry.OptimisticLockErrorMsg))
	}

	// rest.BeforeUpdate
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(namespace, strategy.NamespaceScoped()), obj); err != nil {
		return nil, err
	}
	obj.SetGeneration(old.GetGeneration())
	strategy.PrepareForUpdate(ctx, obj, old)
	copyUpdateSystemFields(obj, old)
	return validateUpdate(ctx, obj, old, strategy), nil
}

// tableFor renders the table row of obj with the version's printer columns.
func (si *servingInfo) tableFor(obj *unstructured.Unstructured) (*Table, error) {
	ctx := genericapirequest.WithNamespace(context.Background(), obj.GetNamespace())
	t, err := si.table.ConvertToTable(ctx, obj, nil)
	if err != nil {
		return nil, err
	}
	out := &Table{Columns: []Column{}, Cells: []interface{}{}}
	for _, c := range t.ColumnDefinitions {
		out.Columns = append(out.Columns, Column{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority})
	}
	if len(t.Rows) != 1 {
		return nil, fmt.Errorf("expected one row, got %d", len(t.Rows))
	}
	for i, cell := range t.Rows[0].Cells {
		// a date cell holding an age relative to now
		if s, ok := cell.(string); ok && i < len(t.ColumnDefinitions) && t.ColumnDefinitions[i].Type == "date" && s != "<unknown>" && s != "<invalid>" {
			cell = "<age>"
		}
		out.Cells = append(out.Cells, cell)
	}
	return out, nil
}

// sortedPaths returns the unknown field paths sorted (upstream sorts each
// group it collects; the groups are concatenated).
func sortedPaths(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	out := append([]string(nil), in...)
	sort.Strings(out)
	return out
}
