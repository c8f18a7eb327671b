package builtin

import (
	"testing"

	"github.com/crdschema/crdschema"
)

// TestInvalidErrorText checks the text of a refusal: the API server's
// (apierrors.NewInvalid's), whose list leaves out repeated messages.
func TestInvalidErrorText(t *testing.T) {
	dup := crdschema.Required(crdschema.NewPath("spec", "template"), "")
	other := crdschema.Invalid(crdschema.NewPath("spec", "replicas"), int64(-1), "must be greater than or equal to 0")
	for _, c := range []struct {
		errs crdschema.ErrorList
		want string
	}{
		{crdschema.ErrorList{dup}, `Deployment.apps "web" is invalid: spec.template: Required value`},
		{crdschema.ErrorList{dup, dup}, `Deployment.apps "web" is invalid: spec.template: Required value`},
		{crdschema.ErrorList{dup, other, dup}, `Deployment.apps "web" is invalid: [spec.template: Required value, spec.replicas: Invalid value: -1: must be greater than or equal to 0]`},
	} {
		if got := (&invalidError{GroupKind: "Deployment.apps", Name: "web", Errors: c.errs}).Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
