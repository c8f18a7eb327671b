// Package oracle runs the Kubernetes API server's own code for built-in
// kinds (k8s.io/kubernetes v1.37.2): the request body decoded by the
// strict JSON serializer into the kind's Go types, defaulted, converted to
// the internal version, and validated by the resource's registry strategy
// (rest.BeforeCreate / rest.BeforeUpdate: ObjectMeta and name validation,
// the hand-written validation of pkg/apis/<group>/validation and the
// declarative validation the release declares). Admission is not run.
//
// It exists to measure crdschema's builtin checks: they must refuse
// nothing that this oracle accepts.
package oracle

import (
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
)

// FieldError is one validation error as the API server reports it.
type FieldError struct {
	Type, Field, Detail string
	Text                string // the whole error, as in the Status message
}

// Result is the API server's answer to one create or update request.
type Result struct {
	// Served is false when the oracle has no strategy for the kind (it
	// then says nothing about the object).
	Served bool
	// DecodeError is the decoding error (400 BadRequest) that refuses the
	// body before validation, as the API server words it; empty if none.
	DecodeError string
	// Strict are the strict decoding problems (unknown and duplicate
	// fields): warnings by default, errors under fieldValidation=Strict.
	Strict []string
	// Errors are the validation errors (422 Invalid).
	Errors []FieldError
	// Other is any other refusal (namespace mismatch, ...).
	Other string
}

// Refused reports whether the API server refuses the request (with the
// default field validation, Warn).
func (r Result) Refused() bool {
	return r.DecodeError != "" || len(r.Errors) > 0 || r.Other != ""
}

var codecs = serializer.NewCodecFactory(legacyscheme.Scheme, serializer.EnableStrict)

func strictJSON() runtime.Serializer {
	for _, info := range codecs.SupportedMediaTypes() {
		if info.MediaType == runtime.ContentTypeJSON {
			return info.StrictSerializer
		}
	}
	panic("no JSON serializer")
}

var jsonStrict = strictJSON()

// gvkOf reads apiVersion and kind from a JSON body.
func gvkOf(body []byte) (schema.GroupVersionKind, error) {
	_, gvk, err := jsonStrict.Decode(body, nil, &runtime.Unknown{})
	if gvk == nil {
		return schema.GroupVersionKind{}, err
	}
	return *gvk, nil
}

// decode decodes body as the create and update handlers do: into the
// internal version of its group, defaulted; strict problems are returned
// apart.
func decode(body []byte, gvk schema.GroupVersionKind) (runtime.Object, []string, string) {
	dec := codecs.DecoderToVersion(jsonStrict, schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
	obj, got, err := dec.Decode(body, &gvk, nil)
	var strict []string
	if err != nil {
		if se, ok := runtime.AsStrictDecodingError(err); ok && obj != nil {
			for _, e := range se.Errors() {
				strict = append(strict, e.Error())
			}
		} else {
			k := gvk
			if got != nil {
				k = *got
			}
			return nil, nil, fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", k.Kind, k.Version, k.Kind, strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	return obj, strict, ""
}

func requestContext(s strategy, obj runtime.Object, gvk schema.GroupVersionKind, verb string) (context.Context, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	ns := ""
	if s.NamespaceScoped() {
		ns = m.GetNamespace()
		if ns == "" {
			ns = "default" // kubectl's namespace when the object names none
			m.SetNamespace(ns)
		}
	}
	ctx = genericapirequest.WithNamespace(ctx, ns)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: verb, APIGroup: gvk.Group, APIVersion: gvk.Version,
		Namespace: ns, Name: m.GetName(),
	})
	return ctx, nil
}

// Create runs a create request of the JSON body.
func Create(body []byte) Result {
	gvk, err := gvkOf(body)
	if err != nil {
		return Result{Served: true, DecodeError: err.Error()}
	}
	s := strategies[gvk.GroupKind()]
	if s == nil {
		return Result{}
	}
	obj, strict, decErr := decode(body, gvk)
	if decErr != "" {
		return Result{Served: true, DecodeError: decErr}
	}
	r := Result{Served: true, Strict: strict}
	ctx, err := requestContext(s, obj, gvk, "create")
	if err != nil {
		r.Other = err.Error()
		return r
	}
	m, _ := meta.Accessor(obj)
	rest.FillObjectMetaSystemFields(m)
	if m.GetName() == "" && m.GetGenerateName() != "" {
		m.SetName(s.GenerateName(m.GetGenerateName()))
	}
	allocate(obj, nil)
	r.setErr(rest.BeforeCreate(s, ctx, obj))
	return r
}

// Update runs an update request of the JSON body over the stored object
// old (itself created first; an old object the API server refuses gives
// Other).
func Update(body, old []byte) Result {
	gvk, err := gvkOf(body)
	if err != nil {
		return Result{Served: true, DecodeError: err.Error()}
	}
	s := strategies[gvk.GroupKind()]
	if s == nil {
		return Result{}
	}
	oldGVK, err := gvkOf(old)
	if err != nil || oldGVK.GroupKind() != gvk.GroupKind() {
		return Result{Served: true, Other: "old object of another kind"}
	}
	oldObj, _, decErr := decode(old, oldGVK)
	if decErr != "" {
		return Result{Served: true, Other: "old object: " + decErr}
	}
	obj, strict, decErr := decode(body, gvk)
	if decErr != "" {
		return Result{Served: true, DecodeError: decErr}
	}
	r := Result{Served: true, Strict: strict}
	ctx, err := requestContext(s, oldObj, gvk, "create")
	if err != nil {
		r.Other = err.Error()
		return r
	}
	om, _ := meta.Accessor(oldObj)
	rest.FillObjectMetaSystemFields(om)
	if om.GetName() == "" && om.GetGenerateName() != "" {
		om.SetName(s.GenerateName(om.GetGenerateName()))
	}
	allocate(oldObj, nil)
	if err := rest.BeforeCreate(s, ctx, oldObj); err != nil {
		return Result{Served: true, Other: "old object refused: " + err.Error()}
	}
	if om.GetResourceVersion() == "" {
		om.SetResourceVersion("1") // as the store returns it
	}
	ctx, err = requestContext(s, obj, gvk, "update")
	if err != nil {
		r.Other = err.Error()
		return r
	}
	m, _ := meta.Accessor(obj)
	if m.GetResourceVersion() == "" {
		m.SetResourceVersion(om.GetResourceVersion()) // an unconditional update
	}
	if m.GetName() == "" && m.GetGenerateName() != "" {
		m.SetName(om.GetName())
	}
	allocate(obj, oldObj)
	r.setErr(rest.BeforeUpdate(s, ctx, obj, oldObj))
	return r
}

func (r *Result) setErr(err error) {
	if err == nil {
		return
	}
	var se apierrors.APIStatus
	if errors.As(err, &se) && apierrors.IsInvalid(err) {
		st := se.Status()
		if st.Details != nil {
			for _, c := range st.Details.Causes {
				r.Errors = append(r.Errors, FieldError{Type: string(c.Type), Field: c.Field, Text: c.Message})
			}
			if len(r.Errors) > 0 {
				return
			}
		}
	}
	r.Other = err.Error()
}
