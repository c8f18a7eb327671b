package prune_test

import (
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

func Example() {
	schema, _ := structural.New(&crdschema.JSONSchemaProps{
		Type: "object",
		Properties: map[string]crdschema.JSONSchemaProps{
			"spec": {
				Type: "object",
				Properties: map[string]crdschema.JSONSchemaProps{
					"cronSpec": {Type: "string"},
					"replicas": {Type: "integer"},
				},
			},
		},
	})
	obj, _ := manifest.UnmarshalObject([]byte(`
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
  creationTimestamp: "2024-05-01T10:00:00.123+02:00"
  clusterName: gone
spec:
  cronSpec: "* * * * */5"
  replicas: 3
  someRandomField: 42
`))

	d := prune.NewDecoder(prune.DecoderOptions{
		Group:   "stable.example.com",
		Kind:    "CronTab",
		Schemas: map[string]*structural.Schema{"v1": schema},
	})
	unknown, err := d.Decode(obj)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("unknown fields:", unknown)
	fmt.Println("spec:", obj["spec"])
	fmt.Println("metadata:", obj["metadata"])
	// Output:
	// unknown fields: [metadata.clusterName spec.someRandomField]
	// spec: map[cronSpec:* * * * */5 replicas:3]
	// metadata: map[creationTimestamp:2024-05-01T08:00:00Z name:my-new-cron-object]
}

func ExamplePrune() {
	schema, _ := structural.New(&crdschema.JSONSchemaProps{
		Type: "object",
		Properties: map[string]crdschema.JSONSchemaProps{
			"items": {Type: "array", Items: &crdschema.JSONSchemaPropsOrArray{Schema: &crdschema.JSONSchemaProps{
				Type:       "object",
				Properties: map[string]crdschema.JSONSchemaProps{"name": {Type: "string"}},
			}}},
		},
	})
	obj := map[string]any{
		"items": []any{map[string]any{"name": "a", "foo": int64(1)}},
		"bar":   true,
	}
	fmt.Println(prune.Prune(obj, schema, false))
	fmt.Println(obj)
	// Output:
	// [bar items[0].foo]
	// map[items:[map[name:a]]]
}
