package openapi_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/crdschema/crdschema/internal/readall"
	"github.com/crdschema/crdschema/openapi"
)

// The CronTab CRD of the Kubernetes documentation.
const cronTabCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
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
                pattern: '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'
              image:
                type: string
              replicas:
                type: integer
                minimum: 1
                maximum: 10
                default: 1
`

func ExampleV3() {
	crds, err := readall.CRDs([]byte(cronTabCRD))
	if err != nil {
		log.Fatal(err)
	}
	doc, err := openapi.V3(crds[0], "v1", openapi.Options{})
	if err != nil {
		log.Fatal(err)
	}
	kind := doc.Components.Schemas["com.example.stable.v1.CronTab"]
	spec, _ := json.MarshalIndent(kind.Properties["spec"], "", "  ")
	fmt.Println(string(spec))
	metadata, _ := json.Marshal(kind.Properties["metadata"].AllOf)
	fmt.Println(string(metadata))
	fmt.Println(kind.Extensions["x-kubernetes-group-version-kind"])
	// Output:
	// {
	//   "type": "object",
	//   "properties": {
	//     "cronSpec": {
	//       "type": "string",
	//       "pattern": "^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$"
	//     },
	//     "image": {
	//       "type": "string"
	//     },
	//     "replicas": {
	//       "type": "integer",
	//       "default": 1,
	//       "maximum": 10,
	//       "minimum": 1
	//     }
	//   }
	// }
	// [{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]
	// [map[group:stable.example.com kind:CronTab version:v1]]
}

func ExampleV2() {
	crds, err := readall.CRDs([]byte(cronTabCRD))
	if err != nil {
		log.Fatal(err)
	}
	doc, err := openapi.V2(crds[0], "v1", openapi.Options{})
	if err != nil {
		log.Fatal(err)
	}
	// Defaults are not published in v2.
	replicas, _ := json.Marshal(doc.Definitions["com.example.stable.v1.CronTab"].Properties["spec"].Properties["replicas"])
	fmt.Println(string(replicas))
	get := doc.Paths.Paths["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}"].Get
	fmt.Println(get.ID, get.Tags)
	// Output:
	// {"type":"integer","maximum":10,"minimum":1}
	// readStableExampleComV1NamespacedCronTab [stableExampleCom_v1]
}
