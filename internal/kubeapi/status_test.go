package kubeapi

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	gr = schema.GroupResource{Group: "stable.example.com", Resource: "crontabs"}
	gk = schema.GroupKind{Group: "stable.example.com", Kind: "CronTab"}
)

// TestInvalidError compares the 422 with apierrors.NewInvalid's for the
// same field errors, as the API server builds it.
func TestInvalidError(t *testing.T) {
	errs := crdschema.ErrorList{
		{Type: crdschema.ErrorTypeRequired, Field: "spec.cronSpec", BadValue: ""},
		{Type: crdschema.ErrorTypeInvalid, Field: "spec.replicas", BadValue: int64(50), Detail: "must be less than or equal to 10"},
	}
	got := InvalidError(gk, "a", errs)
	want := apierrors.NewInvalid(gk, "a", field.ErrorList{
		field.Required(field.NewPath("spec", "cronSpec"), ""),
		field.Invalid(field.NewPath("spec", "replicas"), int64(50), "must be less than or equal to 10"),
	})
	if got.Error() != want.Error() {
		t.Errorf("message\n%s\nwant\n%s", got.Error(), want.Error())
	}
	if g, w := fmt.Sprint(got.ErrStatus.Details), fmt.Sprint(want.ErrStatus.Details); g != w {
		t.Errorf("details\n%s\nwant\n%s", g, w)
	}
	if got.ErrStatus.Code != http.StatusUnprocessableEntity || got.ErrStatus.Reason != metav1.StatusReasonInvalid {
		t.Errorf("code %d, reason %s", got.ErrStatus.Code, got.ErrStatus.Reason)
	}
}

// TestRequestError checks each reason's code and details, and that
// other errors are 500s.
func TestRequestError(t *testing.T) {
	for _, c := range []struct {
		reason  crd.StatusReason
		code    int32
		details string // the details' kind, "" for none
	}{
		{crd.StatusReasonBadRequest, 400, ""},
		{crd.StatusReasonInvalid, 422, "CronTab"},
		{crd.StatusReasonConflict, 409, "crontabs"},
		{crd.StatusReasonNotFound, 404, "crontabs"},
		{crd.StatusReasonRequestEntityTooLarge, 413, ""},
		{crd.StatusReasonInternalError, 500, ""},
	} {
		err := RequestError(fmt.Errorf("wrapped: %w", &crd.RequestError{Reason: c.reason, Message: "the message"}), gr, gk, "a")
		var se *apierrors.StatusError
		if !errors.As(err, &se) {
			t.Fatalf("%s: %T", c.reason, err)
		}
		st := se.ErrStatus
		if st.Code != c.code || string(st.Reason) != string(c.reason) || st.Message != "the message" {
			t.Errorf("%s: code %d, reason %s, message %q", c.reason, st.Code, st.Reason, st.Message)
		}
		if kind := ""; st.Details != nil {
			kind = st.Details.Kind
			if kind != c.details || st.Details.Name != "a" {
				t.Errorf("%s: details %+v, want kind %q", c.reason, st.Details, c.details)
			}
		} else if c.details != "" {
			t.Errorf("%s: no details", c.reason)
		}
	}
	if err := RequestError(errors.New("boom"), gr, gk, "a"); !apierrors.IsInternalError(err) {
		t.Errorf("another error: %v, want a 500", err)
	}
	err := RequestError(&crd.RequestError{Reason: crd.StatusReasonBadRequest, Message: "m",
		Errors: crdschema.ErrorList{{Type: crdschema.ErrorTypeForbidden, Field: "metadata.name", Detail: "no"}}}, gr, gk, "a")
	if st := err.(*apierrors.StatusError).ErrStatus; st.Details == nil || len(st.Details.Causes) != 1 ||
		st.Details.Causes[0].Field != "metadata.name" || st.Details.Causes[0].Message != "Forbidden: no" {
		t.Errorf("causes: %+v", st.Details)
	}
}

func TestStrictError(t *testing.T) {
	err := StrictError([]string{"spec.a", "b"})
	if !apierrors.IsBadRequest(err) || err.Error() != `strict decoding error: unknown field "spec.a", unknown field "b"` {
		t.Errorf("%v", err)
	}
}

func TestResultError(t *testing.T) {
	named := map[string]any{"metadata": map[string]any{"name": "from-object"}}
	invalid := crdschema.ErrorList{{Type: crdschema.ErrorTypeRequired, Field: "spec.x"}}
	for _, c := range []struct {
		what            string
		r               *crd.Result
		err             error
		fieldValidation string
		want            string // the error's text, "" for none
	}{
		{"accepted", &crd.Result{Object: named}, nil, "", ""},
		{"unknown fields, not strict", &crd.Result{Object: named, UnknownFields: []string{"a"}}, nil, metav1.FieldValidationWarn, ""},
		{"unknown fields, strict", &crd.Result{Object: named, UnknownFields: []string{"a"}}, nil, metav1.FieldValidationStrict, `strict decoding error: unknown field "a"`},
		{"refused before validation", &crd.Result{}, &crd.RequestError{Reason: crd.StatusReasonBadRequest, Message: "bad"}, "", "bad"},
		{"no result", nil, &crd.RequestError{Reason: crd.StatusReasonConflict, Message: "conflict"}, "", "conflict"},
		{"no object, no error", &crd.Result{}, nil, "", "Internal error occurred: the pipeline returned no object"},
		{"invalid, named by the object", &crd.Result{Object: named, Errors: invalid}, errors.New("invalid"), "", `CronTab.stable.example.com "from-object" is invalid: spec.x: Required value`},
		{"invalid, named by the request", &crd.Result{Errors: invalid}, nil, "", `CronTab.stable.example.com "a" is invalid: spec.x: Required value`},
	} {
		err := ResultError(c.r, c.err, gr, gk, "a", c.fieldValidation)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.what, got, c.want)
		}
	}
}
