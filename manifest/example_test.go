package manifest_test

import (
	"fmt"
	"strings"

	"github.com/crdschema/crdschema/manifest"
)

func ExampleUnmarshalObject() {
	obj, err := manifest.UnmarshalObject([]byte(`
apiVersion: stable.example.com/v1
kind: CronTab
spec:
  replicas: 1.0
  ratio: 1.5
  enabled: yes
`))
	if err != nil {
		panic(err)
	}
	spec := obj["spec"].(map[string]any)
	fmt.Printf("%T %T %v\n", spec["replicas"], spec["ratio"], spec["enabled"])
	// Output: int64 float64 true
}

func ExampleUnmarshalCRD() {
	crd, unknown, err := manifest.UnmarshalCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  names: {plural: crontabs, kind: CronTab}
  scope: Namespaced
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
            xml: {name: spec}
`))
	if err != nil {
		panic(err)
	}
	fmt.Println(crd.Spec.Names.Kind, crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Type)
	fmt.Println(unknown)
	// Output:
	// CronTab object
	// [spec.versions[0].schema.openAPIV3Schema.properties.spec.xml]
}

func ExampleDecoder() {
	stream := `apiVersion: v1
kind: ConfigMap
metadata: {name: a}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: [b}
---
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Secret, metadata: {name: c}}
`
	dec := manifest.NewDecoder(strings.NewReader(stream))
	for {
		doc, err := dec.Decode()
		if doc == nil {
			break // io.EOF, or a read error
		}
		if err != nil {
			fmt.Println(err) // a bad document: the next ones are read still
			continue
		}
		fmt.Println(doc.Line, doc.Item, doc.Object["kind"])
	}
	// Output:
	// 1 0 ConfigMap
	// document 2 (line 5): yaml: line 6: did not find expected ',' or ']'
	// 9 1 Secret
}
