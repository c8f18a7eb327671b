package jsonschema_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema/jsonschema"
	"github.com/crdschema/crdschema/manifest"
)

func Example() {
	def, _, err := manifest.UnmarshalCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
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
              replicas: {type: integer, default: 1, minimum: 0}
`))
	if err != nil {
		panic(err)
	}
	s, err := jsonschema.Version(def, "v1")
	if err != nil {
		panic(err)
	}
	spec, _ := json.Marshal(s["properties"].(map[string]any)["spec"])
	fmt.Println(string(spec))
	// Output:
	// {"properties":{"replicas":{"default":1,"minimum":0,"type":["integer","null"]}},"type":["object","null"]}
}
