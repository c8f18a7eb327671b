package upgrade_test

import (
	"context"
	"fmt"

	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/upgrade"
)

const stored = `apiVersion: apiextensions.k8s.io/v1
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
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              image: {type: string}
              legacy: {type: string}
`

// The new release limits the image to 10 bytes and drops the legacy field.
const tightened = `apiVersion: apiextensions.k8s.io/v1
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
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              image: {type: string, maxLength: 10}
`

func Example() {
	old, _, _ := manifest.UnmarshalCRD([]byte(stored))
	def, _, _ := manifest.UnmarshalCRD([]byte(tightened))
	objects := []map[string]any{
		{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
			"metadata": map[string]any{"name": "short", "namespace": "default", "resourceVersion": "1"},
			"spec":     map[string]any{"image": "nginx"}},
		{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
			"metadata": map[string]any{"name": "long", "namespace": "default", "resourceVersion": "1"},
			"spec":     map[string]any{"image": "registry.example.com/nginx"}},
		{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
			"metadata": map[string]any{"name": "legacy", "namespace": "default", "resourceVersion": "1"},
			"spec":     map[string]any{"image": "nginx", "legacy": "keep me"}},
	}
	r, err := upgrade.Check(context.Background(), def, old, objects)
	if err != nil {
		panic(err)
	}
	fmt.Println("update refused:", len(r.Errors) > 0)
	for _, c := range r.SchemaChanges {
		fmt.Println("schema:", c)
	}
	for _, o := range r.Objects {
		fmt.Println(o.Name+":", o.Verdict)
		for _, e := range o.Errors {
			fmt.Println("  invalid:", e)
		}
		for _, c := range o.Changes {
			fmt.Println("  on read:", c)
		}
	}
	// Output:
	// update refused: false
	// schema: v1 spec.image: maxLength 10 added
	// schema: v1 spec.legacy: property removed: stored values are pruned
	// short: valid
	// long: ratcheted
	//   invalid: spec.image: Too long: may not be more than 10 bytes
	// legacy: changedOnRead
	//   on read: spec.legacy: pruned (was "keep me")
}
