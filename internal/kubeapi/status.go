package kubeapi

import (
	"errors"
	"fmt"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// InvalidError is the API server's 422 Invalid error for a write that
// validation refuses: its reason, code, causes and message, as
// apierrors.NewInvalid gives them on the server, with crdschema's texts.
func InvalidError(gk schema.GroupKind, name string, errs crdschema.ErrorList) *apierrors.StatusError {
	causes := make([]metav1.StatusCause, 0, len(errs))
	for _, e := range errs {
		causes = append(causes, metav1.StatusCause{Type: metav1.CauseType(e.Type), Message: e.Body(), Field: e.Field})
	}
	msg := ""
	if err := errs.ToAggregate(); err != nil {
		msg = err.Error()
	}
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     int32(crd.StatusReasonInvalid.Code()),
		Reason:   metav1.StatusReasonInvalid,
		Details:  &metav1.StatusDetails{Group: gk.Group, Kind: gk.Kind, Name: name, Causes: causes},
		Message:  fmt.Sprintf("%s %q is invalid: %s", gk.String(), name, msg),
	}}
}

// RequestError is the API server's status error for a request that the
// library refuses before validation (a *crd.RequestError in err's chain):
// the reason and code it names, the details the API server gives with
// that reason (the resource of a conflict or a missing object, the kind of
// an invalid one) and its field errors as causes. Any other error is a 500.
func RequestError(err error, gr schema.GroupResource, gk schema.GroupKind, name string) error {
	var re *crd.RequestError
	if !errors.As(err, &re) {
		return apierrors.NewInternalError(err)
	}
	st := metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     int32(re.Reason.Code()),
		Reason:   metav1.StatusReason(re.Reason),
		Message:  re.Message,
	}
	switch re.Reason {
	case crd.StatusReasonConflict, crd.StatusReasonNotFound:
		st.Details = &metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name}
	case crd.StatusReasonInvalid:
		st.Details = &metav1.StatusDetails{Group: gk.Group, Kind: gk.Kind, Name: name}
	}
	for _, e := range re.Errors {
		if st.Details == nil {
			st.Details = &metav1.StatusDetails{}
		}
		st.Details.Causes = append(st.Details.Causes, metav1.StatusCause{Type: metav1.CauseType(e.Type), Message: e.Body(), Field: e.Field})
	}
	return &apierrors.StatusError{ErrStatus: st}
}

// StrictError is the API server's 400 for the unknown fields of a body
// under fieldValidation=Strict.
func StrictError(unknown []string) error {
	parts := make([]string, len(unknown))
	for i, f := range unknown {
		parts[i] = fmt.Sprintf("unknown field %q", f)
	}
	return apierrors.NewBadRequest("strict decoding error: " + strings.Join(parts, ", "))
}

// ResultError is the API server's error for a write that crdschema's
// pipeline ran (r and err as crd.Resource's writes return them), or nil if
// the write is accepted: a refusal before validation is RequestError's, a
// refusal by validation the 422 (named as the pipeline's object is, else
// name), and unknown fields under fieldValidation=Strict the 400.
func ResultError(r *crd.Result, err error, gr schema.GroupResource, gk schema.GroupKind, name, fieldValidation string) error {
	if r == nil || len(r.Errors) == 0 && (err != nil || r.Object == nil) {
		if err == nil {
			err = errors.New("the pipeline returned no object")
		}
		return RequestError(err, gr, gk, name)
	}
	if len(r.Errors) > 0 {
		if md, ok := r.Object["metadata"].(map[string]any); ok {
			if n, ok := md["name"].(string); ok && n != "" {
				name = n
			}
		}
		return InvalidError(gk, name, r.Errors)
	}
	if fieldValidation == metav1.FieldValidationStrict && len(r.UnknownFields) > 0 {
		return StrictError(r.UnknownFields)
	}
	return nil
}
