package crd_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
)

const scaleCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, maximum: 10}
          status:
            type: object
            properties:
              replicas: {type: integer}
              selector: {type: string}
`

func scaleResource(t *testing.T) *crd.Resource {
	t.Helper()
	def, _, err := manifest.UnmarshalCRD([]byte(scaleCRD))
	if err != nil {
		t.Fatal(err)
	}
	r, err := crd.New(def, "v1")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func obj(t *testing.T, s string) map[string]any {
	t.Helper()
	o, err := manifest.UnmarshalObject([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestGetScale(t *testing.T) {
	r := scaleResource(t)
	s, err := r.GetScale(obj(t, `{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"a","namespace":"ns","uid":"u","resourceVersion":"5","creationTimestamp":"2000-01-01T00:00:00Z"},
		"spec":{"replicas":3},"status":{"replicas":2,"selector":"app=a"}}`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(s)
	want := `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"a","namespace":"ns","uid":"u","resourceVersion":"5","creationTimestamp":"2000-01-01T00:00:00Z"},"spec":{"replicas":3},"status":{"replicas":2,"selector":"app=a"}}`
	if string(got) != want {
		t.Errorf("GetScale =\n%s\nwant\n%s", got, want)
	}

	// Missing status replicas and selector are zero; missing spec replicas
	// is an error.
	s, err = r.GetScale(obj(t, `{"metadata":{"name":"a"},"spec":{"replicas":1}}`))
	if err != nil || s.Status.Replicas != 0 || s.Status.Selector != "" {
		t.Errorf("GetScale without status = %+v, %v", s, err)
	}
	if _, err := r.GetScale(obj(t, `{"metadata":{"name":"a"},"spec":{}}`)); err == nil || !strings.Contains(err.Error(), `the spec replicas field ".spec.replicas" does not exist`) {
		t.Errorf("missing spec replicas: err = %v", err)
	}
	if _, err := r.GetScale(obj(t, `{"metadata":{"name":"a"},"spec":{"replicas":"3"}}`)); err == nil || !strings.Contains(err.Error(), ".spec.replicas accessor error: 3 is of the type string, expected int64") {
		t.Errorf("string spec replicas: err = %v", err)
	}
}

func TestUpdateScale(t *testing.T) {
	r := scaleResource(t)
	stored := obj(t, `{"apiVersion":"stable.example.com/v1","kind":"CronTab",
		"metadata":{"name":"a","namespace":"ns","resourceVersion":"5","generation":2},
		"spec":{"replicas":3},"status":{"replicas":2}}`)
	res, err := r.UpdateScale(context.Background(), &crd.Scale{Spec: crd.ScaleSpec{Replicas: 7}}, stored)
	if res.Object == nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	spec := res.Object["spec"].(map[string]any)
	if spec["replicas"] != int64(7) {
		t.Errorf("spec.replicas = %#v, want 7", spec["replicas"])
	}
	if g := res.Object["metadata"].(map[string]any)["generation"]; g != int64(3) {
		t.Errorf("generation = %#v, want 3 (spec changed)", g)
	}
	if stored["spec"].(map[string]any)["replicas"] != int64(3) {
		t.Error("UpdateScale modified the stored object")
	}

	// The new replicas are validated like any update.
	res, err = r.UpdateScale(context.Background(), &crd.Scale{Spec: crd.ScaleSpec{Replicas: 11}}, stored)
	if err == nil || res.Object == nil {
		t.Fatalf("refused before validation or accepted: %v", err)
	}
	if len(res.Errors) != 1 || res.Errors[0].Error() != "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10" {
		t.Errorf("errors = %v", res.Errors)
	}

	// A stale resourceVersion is refused.
	stale := &crd.Scale{Metadata: crdschema.ObjectMeta{ResourceVersion: "4"}, Spec: crd.ScaleSpec{Replicas: 1}}
	if _, err := r.UpdateScale(context.Background(), stale, stored); err == nil || !strings.Contains(err.Error(), "the object has been modified") {
		t.Errorf("stale resourceVersion: err = %v", err)
	}
}

func TestRequestErrorReasons(t *testing.T) {
	r := scaleResource(t)
	ctx := context.Background()
	stored := obj(t, `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","namespace":"ns","resourceVersion":"5"},"spec":{"replicas":1}}`)
	tests := []struct {
		body, reason, text string
	}{
		{`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","namespace":"ns"}}`, "Invalid",
			`crontabs.stable.example.com "a" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`},
		{`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","namespace":"ns","resourceVersion":"4"}}`, "Conflict",
			`Operation cannot be fulfilled on crontabs.stable.example.com "a": the object has been modified; please apply your changes to the latest version and try again`},
		{`{"apiVersion":"stable.example.com/v2","kind":"CronTab","metadata":{"name":"a","namespace":"ns","resourceVersion":"5"}}`, "BadRequest",
			`the API version in the data (stable.example.com/v2) does not match the expected API version (stable.example.com/v1)`},
	}
	for _, tt := range tests {
		_, err := r.Update(ctx, obj(t, tt.body), stored)
		re, ok := err.(*crd.RequestError)
		if !ok {
			t.Errorf("%s: err = %v, want a *RequestError", tt.body, err)
			continue
		}
		if string(re.Reason) != tt.reason || re.Message != tt.text {
			t.Errorf("got (%s) %s\nwant (%s) %s", re.Reason, re.Message, tt.reason, tt.text)
		}
	}
}
