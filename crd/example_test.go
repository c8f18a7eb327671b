package crd_test

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
)

func Example() {
	def, _, err := manifest.UnmarshalCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    kind: CronTab
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
              cronSpec:
                type: string
              replicas:
                type: int
              tags:
                type: array
                uniqueItems: true
                items:
                  type: string
`))
	if err != nil {
		panic(err)
	}
	for _, e := range crd.Validate(context.Background(), def) {
		fmt.Println(e)
	}
	// Output:
	// spec.validation.openAPIV3Schema.properties[spec].properties[replicas].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"
	// spec.validation.openAPIV3Schema.properties[spec].properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic
}

func ExampleValidateUpdate() {
	old, _, err := manifest.UnmarshalCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    kind: CronTab
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`))
	if err != nil {
		panic(err)
	}
	// The same CRD, made cluster-scoped and given a second storage version.
	def := crd.Defaulted(old)
	def.Spec.Scope = crdschema.ClusterScoped
	def.Spec.Versions = append(def.Spec.Versions[:1:1], def.Spec.Versions[0])
	def.Spec.Versions[1].Name = "v2"
	for _, e := range crd.ValidateUpdate(context.Background(), def, old) {
		fmt.Println(e.Field+":", e.Detail)
	}
	// Output:
	// spec.versions: must have exactly one version marked as storage version
	// spec.scope: field is immutable
	// status.storedVersions: must have the storage version v2
}

// ExampleNew is what an operator's unit test does: compile a version of
// the CRD once, then create and update objects as the API server would.
func ExampleNew() {
	def, _, err := manifest.UnmarshalCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              replicas: {type: integer, default: 1, maximum: 10}
            x-kubernetes-validations:
            - rule: self.replicas >= oldSelf.replicas
              message: replicas may not decrease
          status:
            type: object
            properties:
              ready: {type: integer}
`))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	if err := crd.Validate(ctx, def).ToAggregate(); err != nil {
		panic(err) // the API server would refuse the CRD
	}
	res, err := crd.New(def, "v1")
	if err != nil {
		panic(err)
	}

	created, err := res.Create(ctx, map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "nightly", "finalizers": []any{"cleanup"}},
		"spec":     map[string]any{"cronSpec": "0 3 * * *", "colour": "blue"},
	})
	fmt.Println("create:", err)
	fmt.Println("defaulted replicas:", created.Object["spec"].(map[string]any)["replicas"])
	for _, w := range created.Warnings {
		fmt.Println("warning:", w)
	}

	// The stored object carries the resourceVersion storage gave it: a
	// changed copy of it is the body of an update over it (Update modifies
	// neither).
	stored := created.Object
	update := maps.Clone(stored)
	update["spec"] = map[string]any{"cronSpec": "0 3 * * *", "replicas": int64(0)}
	updated, err := res.Update(ctx, update, stored)
	var re *crd.RequestError
	if errors.As(err, &re) {
		fmt.Println("update:", re.Reason, re.Errors[0].Field, len(updated.Errors))
	}
	fmt.Println("update:", err)
	// Output:
	// create: <nil>
	// defaulted replicas: 1
	// warning: unknown field "spec.colour"
	// warning: metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers
	// update: Invalid spec 1
	// update: CronTab.stable.example.com "nightly" is invalid: spec: Invalid value: replicas may not decrease
}
