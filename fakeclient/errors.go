package fakeclient

import (
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

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
