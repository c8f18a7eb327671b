package kubeapitest

import (
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestRefusalOf(t *testing.T) {
	if r := RefusalOf(nil); r != nil {
		t.Errorf("nil error: %+v", r)
	}
	gk := schema.GroupKind{Group: "g", Kind: "K"}
	r := RefusalOf(apierrors.NewInvalid(gk, "a", field.ErrorList{field.Required(field.NewPath("spec", "x"), "")}))
	if !r.Status || r.Reason != "Invalid" || len(r.Causes) != 1 ||
		r.Causes[0] != (Cause{Type: "FieldValueRequired", Field: "spec.x", Message: "Required value"}) {
		t.Errorf("invalid: %+v", r)
	}
	if r := RefusalOf(&meta.NoKindMatchError{GroupKind: gk}); !r.Status {
		t.Errorf("no match: %+v", r)
	}
	if r := RefusalOf(errors.New("boom")); r.Status || r.Message != "boom" {
		t.Errorf("other error: %+v", r)
	}
}

func TestWarnings(t *testing.T) {
	var w Warnings
	w.HandleWarningHeader(299, "-", "a")
	w.HandleWarningHeader(299, "-", "b")
	if got := w.Take(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("%v", got)
	}
	if got := w.Take(); len(got) != 0 {
		t.Errorf("after Take: %v", got)
	}
}
