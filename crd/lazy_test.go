package crd

import (
	"context"
	"testing"
	"time"

	"github.com/crdschema/crdschema/manifest"
	"github.com/google/go-cmp/cmp"
)

// TestLazyCompile checks that WithLazyCompile changes nothing a request
// sees: the same objects, errors and warnings as an eager Resource, for
// valid and invalid objects, creates and updates.
func TestLazyCompile(t *testing.T) {
	def, _, err := manifest.UnmarshalCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: foos.x.example.com}
spec:
  group: x.example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              num: {type: integer, default: 1}
              items:
                type: array
                maxItems: 5
                items: {type: string, maxLength: 5, x-kubernetes-validations: [{rule: "self != 'bad'"}]}
            x-kubernetes-validations:
            - rule: self.num < 10
            - rule: self.num >= oldSelf.num
              message: num may not decrease
`))
	if err != nil {
		t.Fatal(err)
	}
	fixed := []Option{
		WithUID(func() string { return "u" }),
		WithClock(func() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }),
	}
	eager, err := New(def, "v1", fixed...)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := New(def, "v1", append(fixed, WithLazyCompile())...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	obj := func(n int64, items ...any) map[string]any {
		return map[string]any{"apiVersion": "x.example.com/v1", "kind": "Foo",
			"metadata": map[string]any{"name": "a", "namespace": "default", "resourceVersion": "1"},
			"spec":     map[string]any{"num": n, "items": items}}
	}
	same := func(what string, a, b *Result, aerr, berr error) {
		t.Helper()
		if (aerr == nil) != (berr == nil) {
			t.Fatalf("%s: eager error %v, lazy error %v", what, aerr, berr)
		}
		if aerr != nil {
			return
		}
		if d := cmp.Diff(a, b); d != "" {
			t.Errorf("%s: eager and lazy differ (-eager +lazy):\n%s", what, d)
		}
	}
	for _, o := range []map[string]any{obj(1, "ok"), obj(12, "bad"), obj(3)} {
		a, aerr := eager.Create(ctx, o)
		b, berr := lazy.Create(ctx, o)
		same("create", a, b, aerr, berr)
	}
	old := obj(5, "ok")
	for _, o := range []map[string]any{obj(6, "ok"), obj(4, "bad")} {
		a, aerr := eager.Update(ctx, o, old)
		b, berr := lazy.Update(ctx, o, old)
		same("update", a, b, aerr, berr)
		if a != nil && len(a.Errors) == 0 && o["spec"].(map[string]any)["num"] == int64(4) {
			t.Error("a decreasing n was accepted")
		}
	}
}
