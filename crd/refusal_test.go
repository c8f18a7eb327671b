package crd_test

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/crd"
)

const refusalCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata: {type: object}
          spec:
            type: object
            properties:
              replicas: {type: integer, maximum: 10}
              data: {type: string}
          status:
            type: object
            properties:
              replicas: {type: integer}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema: {type: object}
`

func refusalWidget(name string, spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": name}, "spec": spec}
}

// TestRefusals: every kind of refusal of every request is a non-nil
// *RequestError with the API server's reason and text, and the Result is
// still there: the object as it would have been stored (nil when refused
// before validation), the warnings, the unknown fields and the field
// errors.
func TestRefusals(t *testing.T) {
	ctx := context.Background()
	def := unmarshalCRD(t, refusalCRD)
	r, err := crd.New(def, "v1")
	if err != nil {
		t.Fatal(err)
	}
	created, err := r.Create(ctx, refusalWidget("a", map[string]any{"replicas": int64(1)}))
	if err != nil {
		t.Fatal(err)
	}
	stored := created.Object
	withRV := func(obj map[string]any, rv string) map[string]any {
		obj["metadata"].(map[string]any)["resourceVersion"] = rv
		return obj
	}
	rv := stored["metadata"].(map[string]any)["resourceVersion"].(string)
	big := strings.Repeat("x", 3<<20)
	tooBigToStore := strings.Repeat("x", 1600<<10)
	tests := []struct {
		name      string
		run       func() (*crd.Result, error)
		reason    crd.StatusReason
		message   string // a prefix of the error's text
		validated bool   // refused by validation or storage: Object is set
		errors    int
		unknown   []string
	}{
		{"body too large", func() (*crd.Result, error) { return r.Create(ctx, refusalWidget("b", map[string]any{"data": big})) },
			crd.StatusReasonRequestEntityTooLarge, "Request entity too large: limit is 3145728", false, 0, nil},
		{"update body too large", func() (*crd.Result, error) {
			return r.Update(ctx, withRV(refusalWidget("a", map[string]any{"data": big}), rv), stored)
		}, crd.StatusReasonRequestEntityTooLarge, "Request entity too large: limit is 3145728", false, 0, nil},
		{"too large to store", func() (*crd.Result, error) {
			return r.Create(ctx, refusalWidget("b", map[string]any{"data": tooBigToStore}))
		}, "", "etcdserver: request is too large", true, 0, nil},
		{"no kind", func() (*crd.Result, error) { return r.Create(ctx, map[string]any{"apiVersion": "example.com/v1"}) },
			crd.StatusReasonBadRequest, "Object 'Kind' is missing in the request body", false, 0, nil},
		{"wrong apiVersion", func() (*crd.Result, error) {
			o := refusalWidget("b", nil)
			o["apiVersion"] = "example.com/v3"
			return r.Create(ctx, o)
		}, crd.StatusReasonBadRequest, "the API version in the data (example.com/v3) does not match", false, 0, nil},
		{"undecodable", func() (*crd.Result, error) {
			o := refusalWidget("b", nil)
			o["metadata"] = map[string]any{"name": int64(1)}
			return r.Create(ctx, o)
		}, crd.StatusReasonBadRequest, "Widget in version \"v1\" cannot be handled as a Widget", false, 0, nil},
		{"invalid", func() (*crd.Result, error) {
			return r.Create(ctx, refusalWidget("b", map[string]any{"replicas": int64(11), "unknown": true}))
		}, crd.StatusReasonInvalid, `Widget.example.com "b" is invalid: spec.replicas: Invalid value: 11`, true, 1, []string{"spec.unknown"}},
		{"no resourceVersion", func() (*crd.Result, error) {
			return r.Update(ctx, refusalWidget("a", map[string]any{"unknown": true}), stored)
		}, crd.StatusReasonInvalid, `widgets.example.com "a" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`, false, 1, []string{"spec.unknown"}},
		{"conflict", func() (*crd.Result, error) {
			return r.Update(ctx, withRV(refusalWidget("a", nil), "999"), stored)
		}, crd.StatusReasonConflict, `Operation cannot be fulfilled on widgets.example.com "a"`, false, 0, nil},
		{"invalid status", func() (*crd.Result, error) {
			o := withRV(refusalWidget("a", nil), rv)
			o["status"] = map[string]any{"replicas": "x"}
			return r.UpdateStatus(ctx, o, stored)
		}, crd.StatusReasonInvalid, `Widget.example.com "a" is invalid: [status.replicas`, true, 2, nil},
		{"invalid scale", func() (*crd.Result, error) {
			return r.UpdateScale(ctx, &crd.Scale{Spec: crd.ScaleSpec{Replicas: 11}}, stored)
		}, crd.StatusReasonInvalid, `Widget.example.com "a" is invalid: spec.replicas`, true, 1, nil},
		{"nil scale", func() (*crd.Result, error) { return r.UpdateScale(ctx, nil, stored) },
			crd.StatusReasonBadRequest, "nil update passed to Scale", false, 0, nil},
		{"undecodable stored object", func() (*crd.Result, error) {
			return r.Update(ctx, withRV(refusalWidget("a", nil), rv), map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": "x"})
		}, crd.StatusReasonBadRequest, "the stored object cannot be decoded", false, 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.run()
			if res == nil {
				t.Fatal("nil Result")
			}
			var re *crd.RequestError
			if !errors.As(err, &re) {
				t.Fatalf("error %v (%T), want a *crd.RequestError", err, err)
			}
			if re.Reason != tc.reason || !strings.HasPrefix(re.Message, tc.message) {
				t.Errorf("refused with %q %q, want %q %q...", re.Reason, re.Message, tc.reason, tc.message)
			}
			if (res.Object != nil) != tc.validated {
				t.Errorf("Object set: %v, want %v", res.Object != nil, tc.validated)
			}
			if len(res.Errors) != tc.errors || len(re.Errors) != tc.errors {
				t.Errorf("Result.Errors %v, RequestError.Errors %v, want %d", res.Errors, re.Errors, tc.errors)
			}
			if strings.Join(res.UnknownFields, ",") != strings.Join(tc.unknown, ",") || len(res.Warnings) < len(tc.unknown) {
				t.Errorf("unknown fields %q, warnings %q, want %q", res.UnknownFields, res.Warnings, tc.unknown)
			}
		})
	}
	// No status subresource in v2.
	r2, err := crd.New(def, "v2")
	if err != nil {
		t.Fatal(err)
	}
	res, err := r2.UpdateStatus(ctx, refusalWidget("a", nil), stored)
	var re *crd.RequestError
	if res == nil || !errors.As(err, &re) || re.Reason != crd.StatusReasonNotFound || re.Reason.Code() != 404 {
		t.Errorf("status update without a status subresource: %v %v", res, err)
	}
}

// TestCreateThenUpdate: the object Create stores carries the
// resourceVersion storage gives it, so that it can be passed back as the
// stored object of an update, and a changed copy of it as its body; each
// stored object gets a greater resourceVersion.
func TestCreateThenUpdate(t *testing.T) {
	ctx := context.Background()
	r, err := crd.New(unmarshalCRD(t, refusalCRD), "v1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Create(ctx, refusalWidget("a", map[string]any{"replicas": int64(1)}))
	if err != nil {
		t.Fatal(err)
	}
	last := "0"
	for i := range 3 {
		rv, _ := res.Object["metadata"].(map[string]any)["resourceVersion"].(string)
		if len(rv) < len(last) || (len(rv) == len(last) && rv <= last) {
			t.Fatalf("resourceVersion %q after %q", rv, last)
		}
		last = rv
		body := maps.Clone(res.Object)
		body["spec"] = map[string]any{"replicas": int64(i + 2)}
		if res, err = r.Update(ctx, body, res.Object); err != nil {
			t.Fatalf("update %d: %v", i, err)
		}
		if g := res.Object["metadata"].(map[string]any)["generation"]; g != int64(i+2) {
			t.Errorf("generation %v, want %d", g, i+2)
		}
	}
	// A stale one is a conflict.
	body := maps.Clone(res.Object)
	body["metadata"] = map[string]any{"name": "a", "resourceVersion": "1"}
	if _, err := r.Update(ctx, body, res.Object); err == nil || !strings.Contains(err.Error(), "the object has been modified") {
		t.Errorf("stale update: %v", err)
	}
}

// TestNewRefusesInvalidCRD: New refuses a CRD the API server would refuse,
// with Validate's errors, unless WithoutValidation is given.
func TestNewRefusesInvalidCRD(t *testing.T) {
	def := unmarshalCRD(t, strings.Replace(refusalCRD, "replicas: {type: integer, maximum: 10}", "replicas: {type: integer, maximum: 10, x-kubernetes-validations: [{rule: 'self.nope'}]}", 1))
	want := crd.Validate(context.Background(), def)
	if len(want) == 0 {
		t.Fatal("the CRD is valid")
	}
	_, err := crd.New(def, "v1")
	var re *crd.RequestError
	if !errors.As(err, &re) || re.Reason != crd.StatusReasonInvalid || len(re.Errors) != len(want) ||
		!strings.HasPrefix(re.Message, `CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: `) {
		t.Fatalf("New: %v", err)
	}
	if _, err := crd.New(def, "v1", crd.WithoutValidation()); err != nil {
		t.Errorf("New WithoutValidation: %v", err)
	}
}
