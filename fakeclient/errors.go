package fakeclient

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// invalidError returns the API server's 422 Invalid error for a write refused
// by validation: the same reason, code, causes and message as
// apierrors.NewInvalid gives on the server, with the texts crdschema renders.
func invalidError(gk schema.GroupKind, name string, errs crdschema.ErrorList) *apierrors.StatusError {
	causes := make([]metav1.StatusCause, 0, len(errs))
	for _, e := range errs {
		causes = append(causes, metav1.StatusCause{
			Type:    metav1.CauseType(e.Type),
			Message: errorBody(e),
			Field:   e.Field,
		})
	}
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     http.StatusUnprocessableEntity,
		Reason:   metav1.StatusReasonInvalid,
		Details: &metav1.StatusDetails{
			Group:  gk.Group,
			Kind:   gk.Kind,
			Name:   name,
			Causes: causes,
		},
		Message: fmt.Sprintf("%s %q is invalid: %s", gk.String(), name, aggregate(errs)),
	}}
}

// errorBody is the text of e without its field path, as field.Error's
// ErrorBody renders it.
func errorBody(e *crdschema.Error) string {
	return strings.TrimPrefix(e.Error(), e.Field+": ")
}

// requestError converts a request the library refuses before validation to
// the API server's status error.
func requestError(err error, gr schema.GroupResource, gk schema.GroupKind, name string) error {
	var re *crd.RequestError
	if !errors.As(err, &re) {
		return apierrors.NewInternalError(err)
	}
	reason := metav1.StatusReason(re.Reason)
	code := int32(http.StatusInternalServerError)
	switch reason {
	case metav1.StatusReasonBadRequest:
		code = http.StatusBadRequest
	case metav1.StatusReasonInvalid:
		code = http.StatusUnprocessableEntity
	case metav1.StatusReasonConflict:
		code = http.StatusConflict
	case metav1.StatusReasonNotFound:
		code = http.StatusNotFound
	case metav1.StatusReasonRequestEntityTooLarge:
		code = http.StatusRequestEntityTooLarge
	}
	st := metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     code,
		Reason:   reason,
		Message:  re.Message,
	}
	switch reason {
	case metav1.StatusReasonConflict, metav1.StatusReasonNotFound:
		st.Details = &metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name}
	case metav1.StatusReasonInvalid:
		st.Details = &metav1.StatusDetails{Group: gk.Group, Kind: gk.Kind, Name: name}
	}
	for _, e := range re.Errors {
		if st.Details == nil {
			st.Details = &metav1.StatusDetails{}
		}
		st.Details.Causes = append(st.Details.Causes, metav1.StatusCause{Type: metav1.CauseType(e.Type), Message: errorBody(e), Field: e.Field})
	}
	return &apierrors.StatusError{ErrStatus: st}
}

// notFound is the API server's 404 for a missing object.
func notFound(gr schema.GroupResource, name string) error {
	return apierrors.NewNotFound(gr, name)
}

// unsupportedPatch is the API server's 415 for a patch type custom resources
// do not accept (strategic merge patch).
func unsupportedPatch() error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusUnsupportedMediaType,
		Reason:  metav1.StatusReasonUnsupportedMediaType,
		Message: "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
	}}
}
