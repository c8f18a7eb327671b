package crd_test

import (
	"context"
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
)

func Example() {
	def, _, err := crdschema.UnmarshalCRD([]byte(`
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
	old, _, err := crdschema.UnmarshalCRD([]byte(`
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
