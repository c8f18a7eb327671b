package crdtest

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
)

// The calls into the rest of the module, in one place.

// Fixed generators keep the runs reproducible: object names and uids
// appear in error messages and in the objects compared.
const (
	nameSuffix = "b2c4d"
	objectUID  = "00000000-0000-4000-8000-000000000001"
)

// newResource prepares a version of def for requests at the Kubernetes
// release release, sharing compiled rules through cache. def has been
// validated (validateCRD).
func newResource(def *crdschema.CustomResourceDefinition, version string, release crdschema.KubernetesVersion, cache *celrules.Cache) (*crd.Resource, error) {
	return crd.New(def, version, crd.WithoutValidation(), crd.WithLazyCompile(), crd.WithKubernetesVersion(release), crd.WithCache(cache),
		crd.WithNameSuffix(func() string { return nameSuffix }),
		crd.WithUID(func() string { return objectUID }))
}

// validateCRD returns the API server's error for creating def or, when old
// is not nil, for updating old to def; nil when it accepts it. CRD
// validation evaluates rules on defaults: ctx bounds it.
func validateCRD(ctx context.Context, def, old *crdschema.CustomResourceDefinition, release crdschema.KubernetesVersion, cache *celrules.Cache) error {
	opts := []crd.Option{crd.WithKubernetesVersion(release), crd.WithCache(cache)}
	var errs crdschema.ErrorList
	if old == nil {
		errs = crd.Validate(ctx, def, opts...)
	} else {
		errs = crd.ValidateUpdate(ctx, def, old, opts...)
	}
	return invalid("CustomResourceDefinition", "apiextensions.k8s.io", def.Name, errs)
}

// request runs one request and returns the stored object, or the error
// the API server answers with, as the client's error text.
func request(ctx context.Context, res *crd.Resource, verb string, obj, stored map[string]any) (map[string]any, error) {
	var r *crd.Result
	var err error
	switch verb {
	case "create":
		r, err = res.Create(ctx, obj)
	case "update":
		r, err = res.Update(ctx, obj, stored)
	case "updateStatus":
		r, err = res.UpdateStatus(ctx, obj, stored)
	default:
		return nil, fmt.Errorf("unknown request %q", verb)
	}
	if err != nil {
		var re *crd.RequestError
		if !errors.As(err, &re) {
			return nil, err
		}
		if r.Object == nil || re.Reason != crd.StatusReasonInvalid {
			return nil, &statusError{msg: re.Message}
		}
		group, _, _ := strings.Cut(fmt.Sprint(obj["apiVersion"]), "/")
		kind, _ := obj["kind"].(string)
		return nil, &statusError{msg: re.Message, kind: kind, group: group, name: metaString(r.Object, "name"), errs: r.Errors}
	}
	return r.Object, nil
}

// statusError is an error the API server answers a request with; its text
// is the status message, as Kubernetes clients' errors print it.
type statusError struct {
	msg string
	// For an invalid object: its kind, group and name, and the errors.
	kind, group, name string
	errs              crdschema.ErrorList
}

func (e *statusError) Error() string { return e.msg }

// invalid returns the status error of the API server for an object of
// kind.group named name that fails validation with errs, with the text of
// k8s.io/apimachinery's errors.NewInvalid: "<Kind>.<group> "<name>" is
// invalid: " and the errors as an aggregate (ErrorList.ToAggregate). It
// returns nil for no errors.
func invalid(kind, group, name string, errs crdschema.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	qualified := kind
	if group != "" {
		qualified += "." + group
	}
	return &statusError{msg: fmt.Sprintf("%s %q is invalid: %v", qualified, name, errs.ToAggregate()), kind: kind, group: group, name: name, errs: errs}
}
